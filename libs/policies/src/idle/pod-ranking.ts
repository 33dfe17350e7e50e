import type { PodObservation } from '../domain/pod';

function isServing(observation: PodObservation): boolean {
  return observation.kind === 'found' && observation.status === 'Running' && observation.gpuCount >= 1;
}

function isInFlight(observation: PodObservation): boolean {
  return (
    observation.kind === 'found' &&
    (observation.status === 'Provisioning' || observation.status === 'Starting')
  );
}

/**
 * The pod to report for a volume: the serving one, else the one coming up,
 * else the first listed. RunPod's list order is unspecified, so a stale Exited
 * pod may be listed before its replacement.
 */
export function rankPods<T extends { readonly observation: PodObservation }>(pods: readonly T[]): T | null {
  return (
    pods.find((pod) => isServing(pod.observation)) ??
    pods.find((pod) => isInFlight(pod.observation)) ??
    pods[0] ??
    null
  );
}
