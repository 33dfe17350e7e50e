import { neverRanDue, type NeverRanClocks } from '@podwarden/policies';
import type { GuardStopDependencies, GuardStopRequest } from './guard-stop';

export type NeverRanStopDependencies = GuardStopDependencies<'stopPods'>;
export type NeverRanStopRequest = GuardStopRequest<NeverRanClocks>;

/**
 * Stops every pod on the volume that has gone a whole boot grace without a
 * runtime, whatever protects it: a serving sibling keeping the volume Ready,
 * or a keep-alive. Answers the clocks to keep (an accepted stop drops its pod's).
 */
export async function stopNeverRan(
  deps: NeverRanStopDependencies,
  request: NeverRanStopRequest,
): Promise<NeverRanClocks> {
  const { pod, clocks, now } = request;
  const due = neverRanDue(clocks, pod.bootGraceMinutes * 60_000, now).filter(
    (podId) => !request.alreadyStopped.includes(podId),
  );
  if (due.length === 0) return clocks;
  const fields = { pod: pod.name, targets: due, reason: 'boot-grace' };
  if (deps.dryRun) {
    for (const podId of due) deps.logger.warn({ ...fields, dryRun: true }, `would stop ${podId} (never ran)`);
    return clocks;
  }
  deps.logger.warn(fields, `stopping ${due.join(', ')}: no runtime after the boot grace (never ran)`);
  const outcomes = await deps.stops.stopPods(pod, due, 'boot-grace', request.listed);
  const stopped = new Set(outcomes.filter((o) => o.ok).map((o) => o.podId));
  return Object.fromEntries(Object.entries(clocks).filter(([podId]) => !stopped.has(podId)));
}
