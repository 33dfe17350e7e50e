import type { VolumeLookup } from '../domain/pod';
import type { PodSignalOf } from './pod-signal';

/** Per pod id: when it was first seen starting without a runtime (epoch ms). */
export type NeverRanClocks = Readonly<Record<string, number>>;

/**
 * Each pod's own "never obtained a runtime" clock: per pod, since the volume's phase follows its best
 * signal and a pod stuck without a GPU beside a serving sibling would never run out its boot grace there.
 * Booting starts or keeps it, any other up reading drops it, no evidence keeps it.
 */
export function nextNeverRanClocks(
  previous: NeverRanClocks,
  lookup: VolumeLookup,
  perPod: readonly PodSignalOf[],
  now: number,
): NeverRanClocks {
  if (lookup.kind === 'unreadable') return previous;
  if (lookup.kind === 'not-found') return {};
  const signals = new Map(perPod.map((pod) => [pod.podId, pod.signal]));
  const next: Record<string, number> = {};
  for (const podId of lookup.podIds) {
    const signal = signals.get(podId) ?? 'Unknown';
    const since = previous[podId];
    if (signal === 'Booting') next[podId] = since ?? now;
    else if (signal === 'Unknown' && since !== undefined) next[podId] = since;
  }
  return next;
}

/**
 * The pods that have gone without a runtime for the whole boot grace: stopped
 * whatever protects them (a busy sibling, a keep-alive). A grace of 0 disables it.
 */
export function neverRanDue(clocks: NeverRanClocks, bootGraceMs: number, now: number): string[] {
  if (bootGraceMs <= 0) return [];
  return Object.entries(clocks)
    .filter(([, since]) => now - since >= bootGraceMs)
    .map(([podId]) => podId);
}
