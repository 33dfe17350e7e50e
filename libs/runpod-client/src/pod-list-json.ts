import type { ListedPod, PodList } from '@podwarden/policies';
import type { ExchangeOutcome } from './http-exchange';
import {
  arrayField,
  finiteNumberField,
  isRecord,
  nonBlankStringField,
  parseJson,
  recordField,
  stringField,
} from './json-reading';

export type { PodList };

export function podListFromOutcome(outcome: ExchangeOutcome): PodList {
  if (outcome.kind === 'failed') {
    return { kind: 'unreadable', reason: outcome.reason };
  }
  if (outcome.status < 200 || outcome.status >= 300) {
    return { kind: 'unreadable', reason: `http ${outcome.status}` };
  }
  const parsed = parseJson(outcome.body);
  if (!parsed.ok) {
    return { kind: 'unreadable', reason: 'unparseable pod list' };
  }
  const entries = podEntriesOf(parsed.value);
  if (entries === null) {
    return { kind: 'unreadable', reason: 'pod list is not an array' };
  }
  const pods: ListedPod[] = [];
  for (const entry of entries) {
    const pod = listedPodOf(entry);
    if (pod === null) {
      // A pod we cannot identify may be the one on our volume: skipping it
      // would read a billing pod as "no pod" and invite a second create.
      return { kind: 'unreadable', reason: 'pod list has an entry without an id' };
    }
    pods.push(pod);
  }
  return { kind: 'listed', pods };
}

/** RunPod answers a bare array; `{ pods: [...] }` is tolerated. */
function podEntriesOf(body: unknown): readonly unknown[] | null {
  if (Array.isArray(body)) {
    return body;
  }
  return isRecord(body) ? arrayField(body, 'pods') : null;
}

/** null for an entry we cannot identify: a pod without an id can be neither observed nor stopped. */
export function listedPodOf(entry: unknown): ListedPod | null {
  if (!isRecord(entry)) {
    return null;
  }
  const id = nonBlankStringField(entry, 'id');
  if (id === null) {
    return null;
  }
  const gpu = recordField(entry, 'gpu');
  return {
    id,
    name: stringField(entry, 'name'),
    status: stringField(entry, 'status'),
    volumeIds: networkVolumeIdsOf(entry),
    costPerHr: finiteNumberField(entry, 'costPerHr'),
    gpuId: gpu === null ? null : nonBlankStringField(gpu, 'id'),
    createdAt: stringField(entry, 'createdAt'),
  };
}

export function networkVolumeIdsOf(pod: Record<string, unknown>): string[] {
  const mounts = recordField(pod, 'mounts');
  const network = mounts === null ? null : arrayField(mounts, 'network');
  if (network === null) {
    return [];
  }
  const volumeIds: string[] = [];
  for (const mount of network) {
    const volumeId = isRecord(mount) ? nonBlankStringField(mount, 'volumeId') : null;
    if (volumeId !== null) {
      volumeIds.push(volumeId);
    }
  }
  return volumeIds;
}
