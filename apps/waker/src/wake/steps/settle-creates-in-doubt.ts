import type { GpuCandidate } from '@podwarden/policies';
import { INTERRUPTED_DETAIL, type BillableIntent } from '@podwarden/platform';
import type { WakeRunContext } from '../wake-run-context';
import { stillInDoubt } from '../wake-result';
import type { Placement } from './placement';
import { readVolume } from './read-volume';

export type SettleOutcome = { readonly kind: 'clear' } | Placement;

/** The creates on this pod whose outcome is open: answered ambiguously, or never answered at all. */
export async function createsInDoubt(ctx: WakeRunContext): Promise<BillableIntent[]> {
  return (await ctx.intents.open(ctx.pod.name)).filter((intent) => intent.action === 'Create');
}

/**
 * A create whose answer was lost may have placed a pod RunPod lists only later, so while one is in doubt
 * no create is posted: the volume is re-read each poll and a new pod adopted, and the doubt is dropped only
 * after a re-read past WAKE_CREATE_SETTLE_SECONDS. Out of rounds first: Waiting.
 */
export async function settleCreatesInDoubt(
  ctx: WakeRunContext,
  candidate: GpuCandidate,
  stalePodIds: readonly string[],
): Promise<SettleOutcome> {
  const settleMs = ctx.config.wake.createSettleSeconds * 1000;
  const { pollIntervalMs } = ctx.config.wake;
  const maxRounds = Math.ceil(settleMs / pollIntervalMs) + 1;
  for (let round = 1; ; round++) {
    const doubts = await createsInDoubt(ctx);
    const reread = await readVolume(ctx);
    if (reread.kind === 'unreadable') {
      const why = `volume lookup unreadable (${reread.reason}) before a create; not posting`;
      return { kind: 'ended', result: ctx.state.declined(why) };
    }
    const adopted =
      reread.kind === 'found' ? reread.podIds.find((id) => !stalePodIds.includes(id)) : undefined;
    if (adopted !== undefined) return adopt(ctx, adopted, candidate, doubts);
    const now = ctx.now().getTime();
    const pending = doubts.filter((doubt) => now - Date.parse(doubt.at) < settleMs);
    for (const doubt of doubts.filter((d) => !pending.includes(d))) await notPlaced(ctx, doubt);
    if (pending.length === 0) return { kind: 'clear' };
    if (round >= maxRounds)
      return { kind: 'ended', result: stillInDoubt(pending.length, ctx.state.diagnostics()) };
    await ctx.progress.report(
      'settle',
      `a create may have placed a pod; re-reading the volume (round ${round})`,
    );
    await ctx.pause(pollIntervalMs);
  }
}

async function adopt(
  ctx: WakeRunContext,
  podId: string,
  candidate: GpuCandidate,
  doubts: readonly BillableIntent[],
): Promise<Placement> {
  await ctx.billable({
    action: 'Create',
    podId,
    gpuId: candidate.gpuId,
    pricePerHour: candidate.pricePerHour,
    httpStatus: ctx.state.lastProviderStatus ?? 0,
    ok: true,
    detail: 'adopted after a transient create failure',
    message: `adopting pod ${podId} that a create in doubt placed on the volume`,
  });
  for (const doubt of doubts) await ctx.intents.settle(doubt.podName, doubt.id);
  return { kind: 'placed', podId, candidate };
}

/** Re-read after the settle period and still absent: the create placed nothing we can see. */
async function notPlaced(ctx: WakeRunContext, doubt: BillableIntent): Promise<void> {
  if (doubt.answeredStatus === null) {
    // Never answered (its waker died): its outcome was never recorded, so record it now.
    await ctx.billable({
      action: 'Create',
      podId: null,
      gpuId: doubt.gpuId,
      pricePerHour: doubt.pricePerHour,
      httpStatus: 0,
      ok: false,
      // Never answered: the POST may not have left at all ("0 or 1 write").
      detail: `${INTERRUPTED_DETAIL}; not placed (volume re-read after the settle period)`,
      message: `create ${doubt.requestName ?? ''} interrupted before its answer placed no pod on the volume`,
      intent: doubt,
    });
  } else {
    ctx.log.info({ pod: ctx.pod.name, intent: doubt.id }, 'create in doubt placed no pod; doubt dropped');
    await ctx.intents.settle(doubt.podName, doubt.id);
  }
}
