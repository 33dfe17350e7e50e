import type {
  CreatePodResult,
  ListedPod,
  PodObservation,
  PodStatus,
  RealisedContract,
} from '@podwarden/policies';
import type { PodActionResult, PodList } from '@podwarden/runpod-client';

/** The volume the test config wakes; pods "on the volume" mount it. */
export const OUR_VOLUME = 'vol-ours';

/** GET /pods answered with these pods mounting our volume (plus whatever `others` lists). */
export function volumeWith(podIds: readonly string[], others: readonly ListedPod[] = []): PodList {
  return { kind: 'listed', pods: [...podIds.map((id) => listedPod(id, OUR_VOLUME)), ...others] };
}

/** GET /pods answered, but nothing mounts our volume: the only affirmative "no pod". */
export function emptyVolume(others: readonly ListedPod[] = [listedPod('elsewhere', 'vol-other')]): PodList {
  return { kind: 'listed', pods: others };
}

export function unreadableList(reason = 'http 502'): PodList {
  return { kind: 'unreadable', reason };
}

/** GET /pods holding pod `p1` on `vol-1` in this listed status (priced, with a GPU), or no pod at all when `status` is null. */
export function onePodListed(status: string | null): PodList {
  if (status === null) return { kind: 'listed', pods: [] };
  return {
    kind: 'listed',
    pods: [
      { id: 'p1', name: null, status, volumeIds: ['vol-1'], costPerHr: 0.5, gpuId: 'L40S', createdAt: null },
    ],
  };
}

export function listedPod(id: string, volumeId: string): ListedPod {
  return {
    id,
    name: `pod-${id}`,
    status: 'RUNNING',
    volumeIds: [volumeId],
    costPerHr: null,
    gpuId: null,
    createdAt: null,
  };
}

export function found(
  podId: string,
  status: PodStatus,
  gpuCount = status === 'Running' ? 1 : 0,
  realised?: RealisedContract,
): PodObservation {
  return realised === undefined
    ? { kind: 'found', podId, status, gpuCount }
    : { kind: 'found', podId, status, gpuCount, realised };
}

/** What a faithful RunPod placed for a create on `gpuId` (our volume, the test datacenter). */
export function placedOn(gpuId: string, changes: Partial<RealisedContract> = {}): RealisedContract {
  return { volumeIds: [OUR_VOLUME], dataCenterId: 'EU-RO-1', gpuId, costPerHr: null, ...changes };
}

export function notFound(podId: string): PodObservation {
  return { kind: 'not-found', podId };
}

export function unreadablePod(podId: string, reason = 'http 502'): PodObservation {
  return { kind: 'unreadable', podId, reason };
}

export function actionAccepted(httpStatus = 200): PodActionResult {
  return { ok: true, httpStatus, detail: null };
}

export function actionRefused(
  httpStatus: number,
  detail: string | null = 'refused by RunPod',
): PodActionResult {
  return { ok: false, httpStatus, detail };
}

export function created(podId: string, httpStatus = 201): CreatePodResult {
  return { httpStatus, podId, retryAfterSeconds: null, detail: null };
}

export function createRefused(
  httpStatus: number,
  retryAfterSeconds: number | null = null,
  detail: string | null = `create refused with ${httpStatus}`,
): CreatePodResult {
  return { httpStatus, podId: null, retryAfterSeconds, detail };
}
