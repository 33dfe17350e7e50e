import type { PodObservation, PodStatus } from '../domain/pod';

/** What one observation of one pod on our volume asks the wake to do next. */
export type WakeVerdict = 'Done' | 'StartExisting' | 'CreateReplacement' | 'WaitAndRepoll';

/**
 * Decides one pod. A failed read is never "no pod": it repolls. A not-found says CreateReplacement, but the
 * caller must re-confirm absence by volume first: a 404 on a remembered id can come from a scoped key or a
 * misrouted request while the pod is alive and billing.
 */
export function decidePod(observation: PodObservation, startAttempted: boolean): WakeVerdict {
  switch (observation.kind) {
    case 'unreadable':
      return 'WaitAndRepoll';
    case 'not-found':
      return 'CreateReplacement';
    case 'found':
      return decideFoundPod(observation.status, observation.gpuCount, startAttempted);
  }
}

function decideFoundPod(status: PodStatus, gpuCount: number, startAttempted: boolean): WakeVerdict {
  switch (status) {
    case 'Running':
      // Running with no GPU attached cannot serve; start cannot move it to another machine.
      return gpuCount >= 1 ? 'Done' : 'CreateReplacement';
    case 'Exited':
    case 'Error':
      // One start per pod: a pod that stopped again after our start will not come back by itself.
      return startAttempted ? 'CreateReplacement' : 'StartExisting';
    case 'Terminated':
      return 'CreateReplacement';
    case 'Provisioning':
    case 'Starting':
    case 'Unknown':
      // Something may be in flight (or the API blipped): a second pod would bill twice.
      return 'WaitAndRepoll';
  }
}

/** What to do with every pod on our volume, taken together. */
export type VolumeDecision =
  | { kind: 'done'; servingPodId: string; stalePodIds: string[] }
  | { kind: 'repoll'; inFlightPodIds: string[] }
  | { kind: 'start'; podId: string }
  | { kind: 'create'; stalePodIds: string[] };

export interface VolumePod {
  readonly observation: PodObservation;
  readonly startAttempted: boolean;
}

/**
 * Decides the volume from every pod on it (a stale pod and its replacement can coexist). A serving pod wins
 * and its siblings are stale; otherwise nothing is started or created while any pod may be coming up, since
 * that is how a re-wake used to stack a third billed pod.
 */
export function decideVolume(pods: ReadonlyArray<VolumePod>): VolumeDecision {
  const decided = pods.map((pod) => ({
    podId: pod.observation.podId,
    verdict: decidePod(pod.observation, pod.startAttempted),
  }));

  const serving = decided.find((pod) => pod.verdict === 'Done');
  if (serving !== undefined) {
    const siblings = decided.map((pod) => pod.podId).filter((podId) => podId !== serving.podId);
    return { kind: 'done', servingPodId: serving.podId, stalePodIds: distinct(siblings) };
  }

  const inFlight = decided.filter((pod) => pod.verdict === 'WaitAndRepoll');
  if (inFlight.length > 0) {
    return { kind: 'repoll', inFlightPodIds: distinct(inFlight.map((pod) => pod.podId)) };
  }

  const startable = decided.find((pod) => pod.verdict === 'StartExisting');
  if (startable !== undefined) {
    return { kind: 'start', podId: startable.podId };
  }

  return { kind: 'create', stalePodIds: distinct(decided.map((pod) => pod.podId)) };
}

// A pod listed twice is still one pod: terminate it once.
function distinct(podIds: readonly string[]): string[] {
  return [...new Set(podIds)];
}
