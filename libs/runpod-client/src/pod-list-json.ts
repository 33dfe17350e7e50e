import { z } from 'zod';
import type { ListedPod, PodList } from '@podwarden/policies';
import type { ExchangeOutcome } from './http-exchange';
import {
  bareOrWrappedArray,
  finiteNumber,
  nestedId,
  nonBlankId,
  parseJson,
  readOrNull,
  text,
} from './json-reading';
import { networkVolumeIds } from './network-volumes-json';

export type { PodList };

const podEntries = bareOrWrappedArray('pods');

const listedPod = z
  .object({
    id: nonBlankId,
    name: text,
    status: text,
    mounts: networkVolumeIds,
    costPerHr: finiteNumber,
    gpu: nestedId,
    createdAt: text,
  })
  .transform((pod): ListedPod => ({
    id: pod.id,
    name: pod.name,
    status: pod.status,
    volumeIds: pod.mounts,
    costPerHr: pod.costPerHr,
    gpuId: pod.gpu,
    createdAt: pod.createdAt,
  }));

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
  const entries = readOrNull(podEntries, parsed.value);
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

/** null for an entry we cannot identify: a pod without an id can be neither observed nor stopped. */
export function listedPodOf(entry: unknown): ListedPod | null {
  return readOrNull(listedPod, entry);
}
