import type { PodObservation, PodStatus, VolumeLookup } from '../domain/pod';
import type { ActivityReading } from './activity-classification';

/**
 * One tick's verdict on a pod (or, aggregated, on the volume). Metrics decide
 * when they answer; otherwise the control plane does, and anything it cannot
 * positively establish is Unknown, which holds every counter where it is.
 */
export type PodSignal = 'Busy' | 'Idle' | 'UnreachableButRunning' | 'Booting' | 'NotRunning' | 'Unknown';

const SIGNAL_OF_STATUS: Readonly<Record<PodStatus, PodSignal>> = {
  // Running without answering metrics still bills: vLLM is loading, or dead.
  Running: 'UnreachableButRunning',
  Provisioning: 'Booting',
  Starting: 'Booting',
  Exited: 'NotRunning',
  // ERROR may still hold its GPU and bill, and says nothing of use: it holds every counter
  // and the cap's clock (never the Down edge); the ERROR guard (error-pods.ts) stops it.
  Error: 'Unknown',
  Terminated: 'NotRunning',
  Unknown: 'Unknown',
};

/** `scrape` is the reading of a /metrics that answered, null when it did not; `observation` is consulted only then. */
export function classifyPodSignal(
  scrape: ActivityReading | null,
  observation: PodObservation | null,
): PodSignal {
  if (scrape !== null) {
    return scrape;
  }
  if (observation === null || observation.kind !== 'found') {
    // A failed or empty read is not "down": fail closed.
    return 'Unknown';
  }
  return SIGNAL_OF_STATUS[observation.status];
}

/** A pod positively observed up bills, so it is a stop target. */
export function isUpSignal(signal: PodSignal): boolean {
  return signal === 'Busy' || signal === 'Idle' || signal === 'UnreachableButRunning' || signal === 'Booting';
}

export interface PodSignalOf {
  readonly podId: string;
  readonly signal: PodSignal;
}

/** The volume's verdict, named by the pod that produced it (null when no pod did). */
export interface VolumeSignal {
  readonly signal: PodSignal;
  readonly podId: string | null;
}

// Idle and UnreachableButRunning share a rank: both bill while serving nobody.
const SIGNAL_RANK: Readonly<Record<PodSignal, number>> = {
  Busy: 4,
  Idle: 3,
  UnreachableButRunning: 3,
  Booting: 2,
  Unknown: 1,
  NotRunning: 0,
};

/**
 * A stale pod and its replacement can share the volume in any list order, so every pod counts: a Busy pod
 * anywhere wins, and a dead sibling listed first never hides a billing one. Ties go to list order; an
 * unclassified listed pod reads Unknown (no evidence is not "down").
 */
export function aggregateSignals(lookup: VolumeLookup, perPod: ReadonlyArray<PodSignalOf>): VolumeSignal {
  if (lookup.kind === 'unreadable') {
    // An unreadable list is never "nothing to stop".
    return { signal: 'Unknown', podId: null };
  }
  if (lookup.kind === 'not-found' || lookup.podIds.length === 0) {
    return { signal: 'NotRunning', podId: null };
  }
  const classified = new Set(perPod.map((pod) => pod.podId));
  const unclassified = lookup.podIds
    .filter((podId) => !classified.has(podId))
    .map((podId): PodSignalOf => ({ podId, signal: 'Unknown' }));
  // Never empty here: either the caller classified pods or every listed id is unclassified.
  const candidates = [...perPod, ...unclassified];
  const winner = candidates.reduce((best, pod) =>
    SIGNAL_RANK[pod.signal] > SIGNAL_RANK[best.signal] ? pod : best,
  );
  return { signal: winner.signal, podId: winner.podId };
}

/** Every pod observed up, in list order: a stop (idle, boot grace or cap) covers them all. */
export function stopTargets(perPod: ReadonlyArray<PodSignalOf>): string[] {
  return perPod.filter((pod) => isUpSignal(pod.signal)).map((pod) => pod.podId);
}
