import type { ErrorClocks, ListedPod, NeverRanClocks, PodConfig } from '@podwarden/policies';
import { stopErrorPods, type ErrorPodStopDependencies } from './error-pod-stop';
import { stopNeverRan } from './never-ran-stop';
import type { TickObservation } from './tick-observation';

export interface StuckPodsRequest {
  readonly pod: PodConfig;
  readonly seen: Pick<TickObservation, 'perPod' | 'errorSince' | 'neverRanSince'>;
  /** Whether the volume's own guard (idle, boot grace, cap) stopped this tick, and which pods it was for. */
  readonly phaseStop: { readonly fired: boolean; readonly targets: readonly string[] };
  readonly listed: readonly ListedPod[];
  readonly now: number;
}

/**
 * The per-pod guards the volume's phase machine cannot see: a pod in ERROR
 * past its grace, then a pod that never obtained a runtime. A pod one guard
 * acted on this tick is left to the next tick by the others.
 */
export async function stopStuckPods(
  deps: ErrorPodStopDependencies,
  request: StuckPodsRequest,
): Promise<{ readonly errorSince: ErrorClocks; readonly neverRanSince: NeverRanClocks }> {
  const { pod, seen, phaseStop, listed, now } = request;
  const errors = await stopErrorPods(deps, {
    pod,
    clocks: seen.errorSince,
    alreadyStopped: phaseStop.targets,
    listed,
    now,
  });
  const neverRanSince = await stopNeverRan(deps, {
    pod,
    clocks: seen.neverRanSince,
    alreadyStopped: [...(phaseStop.fired ? seen.perPod.map((p) => p.podId) : []), ...errors.acted],
    listed,
    now,
  });
  return { errorSince: errors.clocks, neverRanSince };
}
