import type { StopReason } from './idle-phase';
import type { PendingStop } from './stop-confirmation';

/** Why a pod went down, as the event stream says it: one of the tick's guards, or an operator's stop. */
export type DownReason = StopReason | 'manual';

/**
 * The reason a tick gives its Down edge. Its own stop names itself; otherwise an operator's stop that
 * RunPod accepted and no tick has yet seen land explains it (the tick can see the pod down before the
 * stop service marks it), and anything else went down on its own: null.
 */
export function downReasonOf(ownStop: StopReason | null, pending: readonly PendingStop[]): DownReason | null {
  if (ownStop !== null) return ownStop;
  return pending.some((entry) => entry.trigger === 'manual' && entry.confirmedAt === null) ? 'manual' : null;
}
