import {
  afterErrorStop,
  afterErrorTerminate,
  errorActionsDue,
  errorGraceMs,
  isListedOnVolume,
  type ErrorAction,
  type ErrorClock,
  type ErrorClocks,
  type PodConfig,
} from '@podwarden/policies';
import type { GuardStopDependencies, GuardStopRequest } from './guard-stop';

export type ErrorPodStopDependencies = GuardStopDependencies<'stopPods' | 'terminatePod'>;
export type ErrorPodStopRequest = GuardStopRequest<ErrorClocks>;

export interface ErrorPodStopResult {
  /** The clocks to keep. */
  readonly clocks: ErrorClocks;
  /** The pods the guard acted on this tick (or, in dry run, said it would). */
  readonly acted: readonly string[];
}

/** Whether the ERROR guard acts on any pod of this volume this tick (the caller then re-checks its lock). */
export function errorPodsDue(pod: PodConfig, clocks: ErrorClocks, now: number): boolean {
  return errorActionsDue(clocks, errorGraceMs(pod.bootGraceMinutes), now).length > 0;
}

/**
 * The ERROR guard: a pod seen in ERROR for the grace is stopped (trigger `error`) whatever protects the
 * volume (a serving sibling, a keep-alive); a stop RunPod refuses, or one not taken a second grace later,
 * becomes a terminate. Decisions are error-pods.ts'.
 */
export async function stopErrorPods(
  deps: ErrorPodStopDependencies,
  request: ErrorPodStopRequest,
): Promise<ErrorPodStopResult> {
  const { pod, clocks, now } = request;
  const due = errorActionsDue(clocks, errorGraceMs(pod.bootGraceMinutes), now).filter(
    ({ podId }) => !request.alreadyStopped.includes(podId),
  );
  if (due.length === 0) return { clocks, acted: [] };
  const next = new Map(Object.entries(clocks));
  for (const { podId, action } of due) {
    const clock = next.get(podId) as ErrorClock;
    const after = deps.dryRun
      ? dryRun(deps, request, podId, action, clock)
      : await act(deps, request, podId, action, clock);
    if (after === null) next.delete(podId);
    else next.set(podId, after);
  }
  return { clocks: Object.fromEntries(next), acted: due.map(({ podId }) => podId) };
}

function fieldsOf(request: ErrorPodStopRequest, podId: string, clock: ErrorClock): Record<string, unknown> {
  return { pod: request.pod.name, podId, reason: 'error', inErrorSince: new Date(clock.since).toISOString() };
}

// Nothing is sent: the clock restarts, so the line comes once per grace rather than on every tick.
function dryRun(
  deps: ErrorPodStopDependencies,
  request: ErrorPodStopRequest,
  podId: string,
  action: ErrorAction,
  clock: ErrorClock,
): ErrorClock {
  deps.logger.warn({ ...fieldsOf(request, podId, clock), dryRun: true }, `would ${action} ${podId} (error)`);
  return { since: request.now, stoppedAt: null };
}

async function act(
  deps: ErrorPodStopDependencies,
  request: ErrorPodStopRequest,
  podId: string,
  action: ErrorAction,
  clock: ErrorClock,
): Promise<ErrorClock | null> {
  const { pod, listed, now } = request;
  const fields = fieldsOf(request, podId, clock);
  const onVolume = isListedOnVolume(listed, podId, pod.volumeId);
  if (action === 'stop') {
    deps.logger.warn(fields, `stopping ${podId}: in ERROR longer than the grace (error)`);
    const [stopped] = await deps.stops.stopPods(pod, [podId], 'error', listed);
    const after = afterErrorStop(clock, stopped, onVolume, now);
    if (!after.terminate) return after.clock;
    deps.logger.warn(fields, `stop of ${podId} refused (HTTP ${stopped.httpStatus}); terminating it (error)`);
  } else if (!onVolume) {
    deps.logger.error(fields, `not terminating ${podId}: the list does not show it on ${pod.volumeId}`);
    return clock;
  } else {
    deps.logger.error(fields, `terminating ${podId}: still in ERROR a grace after it was due a stop (error)`);
  }
  return afterErrorTerminate(clock, await deps.stops.terminatePod(pod, podId, 'error', listed));
}
