import type { BillableIntent } from '@podwarden/platform';
import { INTERRUPTED_DETAIL, listedStatus, unansweredIntentRow } from '@podwarden/platform';
import { isStopPathIntent } from '@podwarden/policies';
import type { WakeRunContext } from '../wake-run-context';

/**
 * Settles the billable intents a previous run's dead waker left open against this run's fresh read (an
 * unlisted create stays in doubt, blocking creates); each row claims its intent, so none is recorded twice.
 * Stop-path intents are skipped: their caller may still be waiting; the idle monitor reconciles them.
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
  const status = listedStatus(intent.podId === null ? undefined : ctx.state.listedPod(intent.podId));
  await ctx.billable({
    ...unansweredIntentRow(intent),
    // Whether the call left before its waker died is unknowable: this row means "0 or 1 write".
    detail: `${INTERRUPTED_DETAIL}; the pod is now ${status}`,
    message: `reconciled ${intent.action} of pod ${intent.podId ?? '-'} interrupted before its answer (now ${status})`,
    intent,
  });
}
