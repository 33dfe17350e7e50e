import { lookupVolume, tickLaneOf, type PodConfig, type PodwardenConfig } from '@podwarden/policies';
import type { PodList } from '@podwarden/runpod-client';
import { mapBounded } from '@podwarden/platform';

/**
 * Runs a tick's pods in two lanes side by side: pods with something on their volume under
 * `idleConcurrency` (RunPod and the proxies see the same bounded load as ever), quiet ones (Redis only)
 * under `idleQuietConcurrency`, so many stopped pods cost a few Redis round trips of wall time, not one each.
 */
export async function fanOutTick<R>(
  pods: readonly PodConfig[],
  list: PodList,
  tuning: Pick<PodwardenConfig['tuning'], 'idleConcurrency' | 'idleQuietConcurrency'>,
  tickPod: (pod: PodConfig) => Promise<R>,
): Promise<Map<PodConfig, R>> {
  const quiet = new Set(pods.filter((pod) => tickLaneOf(lookupVolume(list, pod.volumeId)) === 'quiet'));
  const others = pods.filter((pod) => !quiet.has(pod));
  const [quietResults, otherResults] = await Promise.all([
    mapBounded([...quiet], tuning.idleQuietConcurrency, tickPod),
    mapBounded(others, tuning.idleConcurrency, tickPod),
  ]);
  return new Map([
    ...[...quiet].map((pod, i): [PodConfig, R] => [pod, quietResults[i]]),
    ...others.map((pod, i): [PodConfig, R] => [pod, otherResults[i]]),
  ]);
}
