import type { BillableIntent } from '@podwarden/platform';
import { INTERRUPTED_DETAIL } from '@podwarden/platform';
import { isStopPathIntent } from '@podwarden/policies';
import type { WakeRunContext } from '../wake-run-context';

/**
 * The first thing a run does after its fresh read of the volume: every
 * billable intent a previous run left without an outcome (its waker died
 * during the call) is reconciled against that read. A create whose requested
 * pod is listed is recorded as placed (on the volume, this run then adopts
 * it); a start or terminate is recorded with what the pod is now. A create
 * not listed yet stays in doubt: it blocks the next create until the volume
 * settles. Intents answered ambiguously in a run are that run's to settle.
 * Each row claims its intent in the same write, so a late answer that
 * records first leaves nothing here to record twice.
 * The stop path's intents (stops, the ERROR guard's terminates) are skipped:
 * their caller may still be waiting for the answer; the idle monitor reconciles them.
 */
export async function reconcileIntents(ctx: WakeRunContext): Promise<void> {
  const open = await ctx.intents.open(ctx.pod.name);
  for (const intent of open) {
    if (isStopPathIntent(intent)) continue;
    if (intent.action === 'Create') await reconcileCreate(ctx, intent, intent.answeredStatus === null);
    else await reconcileAction(ctx, intent);
  }
}

async function reconcileCreate(
  ctx: WakeRunContext,
  intent: BillableIntent,
  unanswered: boolean,
): Promise<void> {
  const placed = intent.requestName === null ? undefined : ctx.state.listedByName(intent.requestName);
  if (placed === undefined) return;
  const onVolume = placed.volumeIds.includes(ctx.pod.volumeId);
  await ctx.billable({
    action: 'Create',
    podId: placed.id,
    gpuId: intent.gpuId,
    pricePerHour: intent.pricePerHour,
    httpStatus: intent.answeredStatus ?? 0,
    ok: true,
    detail: `reconciled: ${unanswered ? 'an interrupted create' : 'a create in doubt'} placed this pod${onVolume ? '' : ' off the volume'}`,
    message: `reconciled create ${intent.requestName}: it placed pod ${placed.id}${onVolume ? '' : ' (not on the volume)'}`,
    intent,
  });
}

async function reconcileAction(ctx: WakeRunContext, intent: BillableIntent): Promise<void> {
  const now = intent.podId === null ? undefined : ctx.state.listedPod(intent.podId);
  const status = now === undefined ? 'not listed' : (now.status ?? 'listed without a status');
  await ctx.billable({
    action: intent.action,
    podId: intent.podId,
    gpuId: intent.gpuId,
    pricePerHour: intent.pricePerHour,
    httpStatus: 0,
    ok: false,
    // Whether the call left before its waker died is unknowable: this row means "0 or 1 write".
    detail: `${INTERRUPTED_DETAIL}; the pod is now ${status}`,
    message: `reconciled ${intent.action} of pod ${intent.podId ?? '-'} interrupted before its answer (now ${status})`,
    intent,
  });
}
