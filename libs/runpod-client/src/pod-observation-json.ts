import { z } from 'zod';
import type { PodObservation, PodStatus, RealisedContract } from '@podwarden/policies';
import type { ExchangeOutcome } from './http-exchange';
import { anyArray, finiteNumber, nonBlankText, parseJson, readOrNull, text } from './json-reading';
import { networkVolumeIds } from './network-volumes-json';
import { isProblemNotFound } from './problem-details';

const STATUS_BY_WIRE_VALUE: Readonly<Record<string, PodStatus>> = {
  PROVISIONING: 'Provisioning',
  STARTING: 'Starting',
  EXITED: 'Exited',
  ERROR: 'Error',
  TERMINATED: 'Terminated',
};

/** A requested GPU count: a positive integer, else absent. */
const gpuCount = z
  .number()
  .refine((count) => Number.isInteger(count) && count > 0)
  .nullable()
  .catch(null);

/** The fields of a pod object we read; any other value in them reads as absent. */
const observedPod = z.object({
  status: text,
  runtime: z
    .object({ uptime: finiteNumber, uptimeInSeconds: finiteNumber, gpus: anyArray })
    .nullable()
    .catch(null),
  gpu: z.object({ id: nonBlankText, count: gpuCount }).nullable().catch(null),
  mounts: networkVolumeIds,
  dataCenterId: nonBlankText,
  costPerHr: finiteNumber,
});

export type ObservedPod = z.infer<typeof observedPod>;

/** Shapes the answer to GET /pods/{id}. A failed read is never "not found". */
export function observationFromOutcome(podId: string, outcome: ExchangeOutcome): PodObservation {
  if (outcome.kind === 'failed') {
    return { kind: 'unreadable', podId, reason: outcome.reason };
  }
  const parsed = parseJson(outcome.body);
  const body = parsed.ok ? parsed.value : undefined;
  if (outcome.status >= 200 && outcome.status < 300) {
    // The pod answered; if we cannot read what it is, the policy must wait, not act.
    const pod = readOrNull(observedPod, body);
    return pod !== null
      ? {
          kind: 'found',
          podId,
          status: podStatusOf(pod),
          gpuCount: gpuCountOf(pod),
          realised: realisedContractOf(pod),
        }
      : { kind: 'found', podId, status: 'Unknown', gpuCount: 0 };
  }
  if (isProblemNotFound(outcome.status, outcome.headers, body)) {
    return { kind: 'not-found', podId };
  }
  const suffix = outcome.status === 404 ? ' without problem details' : '';
  return { kind: 'unreadable', podId, reason: `http ${outcome.status}${suffix}` };
}

/**
 * RUNNING counts as Running only once the runtime reports uptime: right after
 * a (re)start RUNNING arrives with runtime null, {} or uptime 0 while the GPU
 * attaches, and reading that as "running with no GPU" would bill a second pod.
 */
export function podStatusOf(pod: ObservedPod): PodStatus {
  const wire = pod.status;
  if (wire === 'RUNNING') {
    return hasUptime(pod) ? 'Running' : 'Starting';
  }
  return wire !== null && Object.hasOwn(STATUS_BY_WIRE_VALUE, wire) ? STATUS_BY_WIRE_VALUE[wire] : 'Unknown';
}

function hasUptime(pod: ObservedPod): boolean {
  const uptime = pod.runtime === null ? null : (pod.runtime.uptime ?? pod.runtime.uptimeInSeconds);
  return uptime !== null && uptime > 0;
}

/** GPUs actually attached (runtime.gpus), falling back to the requested gpu.count only when that array is absent. */
export function gpuCountOf(pod: ObservedPod): number {
  return pod.runtime?.gpus?.length ?? pod.gpu?.count ?? 0;
}

/** What RunPod placed, as the pod object says: the wake checks it against what it asked for. */
export function realisedContractOf(pod: ObservedPod): RealisedContract {
  return {
    volumeIds: pod.mounts,
    dataCenterId: pod.dataCenterId,
    gpuId: pod.gpu?.id ?? null,
    costPerHr: pod.costPerHr,
  };
}
