import type { PodObservation, PodStatus, RealisedContract } from '@podwarden/policies';
import type { ExchangeOutcome } from './http-exchange';
import {
  arrayField,
  finiteNumberField,
  isRecord,
  nestedId,
  nonBlankStringField,
  parseJson,
  recordField,
  stringField,
} from './json-reading';
import { networkVolumeIdsOf } from './network-volumes-json';
import { isProblemNotFound } from './problem-details';

const STATUS_BY_WIRE_VALUE: Readonly<Record<string, PodStatus>> = {
  PROVISIONING: 'Provisioning',
  STARTING: 'Starting',
  EXITED: 'Exited',
  ERROR: 'Error',
  TERMINATED: 'Terminated',
};

/** Shapes the answer to GET /pods/{id}. A failed read is never "not found". */
export function observationFromOutcome(podId: string, outcome: ExchangeOutcome): PodObservation {
  if (outcome.kind === 'failed') {
    return { kind: 'unreadable', podId, reason: outcome.reason };
  }
  const parsed = parseJson(outcome.body);
  const body = parsed.ok ? parsed.value : undefined;
  if (outcome.status >= 200 && outcome.status < 300) {
    // The pod answered; if we cannot read what it is, the policy must wait, not act.
    return isRecord(body)
      ? {
          kind: 'found',
          podId,
          status: podStatusOf(body),
          gpuCount: gpuCountOf(body),
          realised: realisedContractOf(body),
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
export function podStatusOf(pod: Record<string, unknown>): PodStatus {
  const wire = stringField(pod, 'status');
  if (wire === 'RUNNING') {
    return hasUptime(pod) ? 'Running' : 'Starting';
  }
  return wire !== null && Object.hasOwn(STATUS_BY_WIRE_VALUE, wire) ? STATUS_BY_WIRE_VALUE[wire] : 'Unknown';
}

function hasUptime(pod: Record<string, unknown>): boolean {
  const runtime = recordField(pod, 'runtime');
  if (runtime === null) {
    return false;
  }
  const uptime = finiteNumberField(runtime, 'uptime') ?? finiteNumberField(runtime, 'uptimeInSeconds');
  return uptime !== null && uptime > 0;
}

/** GPUs actually attached (runtime.gpus), falling back to the requested gpu.count only when that array is absent. */
export function gpuCountOf(pod: Record<string, unknown>): number {
  const runtime = recordField(pod, 'runtime');
  const attached = runtime === null ? null : arrayField(runtime, 'gpus');
  if (attached !== null) {
    return attached.length;
  }
  const gpu = recordField(pod, 'gpu');
  const requested = gpu === null ? null : finiteNumberField(gpu, 'count');
  return requested !== null && Number.isInteger(requested) && requested > 0 ? requested : 0;
}

/** What RunPod placed, as the pod object says: the wake checks it against what it asked for. */
export function realisedContractOf(pod: Record<string, unknown>): RealisedContract {
  return {
    volumeIds: networkVolumeIdsOf(pod),
    dataCenterId: nonBlankStringField(pod, 'dataCenterId'),
    gpuId: nestedId(pod, 'gpu'),
    costPerHr: finiteNumberField(pod, 'costPerHr'),
  };
}
