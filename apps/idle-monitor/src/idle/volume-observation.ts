import {
  baselineEvent,
  baselineOf,
  classifyActivity,
  classifyPodSignal,
  type ActivityClassification,
  type BaselineBook,
  type BaselineUpdate,
  type PodConfig,
  type PodObservation,
  type PodSignalOf,
  type VolumeLookup,
} from '@podwarden/policies';
import { mapBounded } from '@podwarden/platform';
import type { RunPodClient } from '@podwarden/runpod-client';

/** The reads a tick makes; its stops go through the stop service. */
export type IdleControlPlane = Pick<RunPodClient, 'getActivity' | 'observePod' | 'listPods'>;

export interface PodReading {
  readonly podId: string;
  readonly scrape: ActivityClassification | null;
  readonly observation: PodObservation | null;
  readonly signal: PodSignalOf['signal'];
}

export interface VolumeObservation {
  readonly readings: PodReading[];
  readonly baselineUpdates: BaselineUpdate[];
}

/**
 * One tick's reading of every pod on a volume: /metrics first (Busy/Idle),
 * and only when it does not answer, the control plane (is the pod billing
 * without serving, starting, or down?). Reads only; decides nothing itself.
 */
export async function observeVolume(
  client: IdleControlPlane,
  pod: PodConfig,
  lookup: VolumeLookup,
  baselines: BaselineBook,
  concurrency: number,
  signal?: AbortSignal,
): Promise<VolumeObservation> {
  if (lookup.kind !== 'found') return { readings: [], baselineUpdates: [] };
  const readings = await mapBounded(lookup.podIds, concurrency, async (podId): Promise<PodReading> => {
    const activity = await client.getActivity(podId, pod.podPort, signal);
    const scrape = activity === null ? null : classifyActivity(activity, baselineOf(baselines, podId));
    const observation = scrape === null ? await client.observePod(podId, signal) : null;
    return { podId, scrape, observation, signal: classifyPodSignal(scrape?.reading ?? null, observation) };
  });
  return {
    readings,
    baselineUpdates: readings.map((r) => ({ podId: r.podId, event: baselineEvent(r.scrape, r.observation) })),
  };
}
