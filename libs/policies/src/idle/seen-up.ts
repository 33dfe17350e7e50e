import type { ListedPod, VolumeLookup } from '../domain/pod';
import { isUpSignal, type PodSignalOf } from './pod-signal';

// Listed statuses in which a pod no longer bills compute.
const LISTED_DOWN = new Set(['EXITED', 'TERMINATED']);

/**
 * Whether the list says a pod may still bill. Only a status that positively
 * says down counts as down: a missing or unfamiliar status fails closed.
 */
export function listedAsUp(entry: ListedPod | undefined): boolean {
  const status = entry?.status?.toUpperCase() ?? null;
  return status === null || !LISTED_DOWN.has(status);
}

/**
 * The pods of a volume seen up this tick, in list order: those whose own read says up or, where that read
 * failed, that the list still shows billing. An unreadable list tells nothing, so what was last seen up
 * stays the answer.
 */
export function seenUpPods(
  lookup: VolumeLookup,
  perPod: readonly PodSignalOf[],
  listed: readonly ListedPod[],
  previous: readonly string[],
): readonly string[] {
  if (lookup.kind === 'unreadable') return previous;
  if (lookup.kind === 'not-found') return [];
  const signals = new Map(perPod.map((pod) => [pod.podId, pod.signal]));
  return lookup.podIds.filter((podId) => {
    const signal = signals.get(podId) ?? 'Unknown';
    if (signal !== 'Unknown') return isUpSignal(signal);
    return listedAsUp(listed.find((entry) => entry.id === podId));
  });
}
