import { lookupVolume, type PodConfig, type PodObservation, type VolumeLookup } from '@podwarden/policies';
import type { RunPodClient } from '@podwarden/runpod-client';

/** What the control plane said about a volume: the snapshot's content. */
export type VolumeReading =
  | { readonly kind: 'unconfigured' }
  | { readonly kind: 'unreadable' }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'found'; readonly pods: readonly VolumePodReading[] };

export interface VolumePodReading {
  readonly podId: string;
  readonly observation: PodObservation;
}

/**
 * The reading of a volume when every pod on it was observed; null when a pod lacks an
 * observation (the idle monitor skips the observe of a pod whose vLLM answered), so a
 * partial reading is never published as the whole volume.
 */
export function volumeReadingOf(
  lookup: VolumeLookup,
  observations: ReadonlyMap<string, PodObservation>,
): VolumeReading | null {
  if (lookup.kind === 'unreadable') return { kind: 'unreadable' };
  if (lookup.kind === 'not-found') return { kind: 'not-found' };
  const pods: VolumePodReading[] = [];
  for (const podId of lookup.podIds) {
    const observation = observations.get(podId);
    if (observation === undefined) return null;
    pods.push({ podId, observation });
  }
  return { kind: 'found', pods };
}

/** One list, then one observe per pod on the volume (in parallel). An unreadable list stays unreadable. */
export async function readVolume(
  client: Pick<RunPodClient, 'listPods' | 'observePod'>,
  pod: PodConfig,
): Promise<VolumeReading> {
  const lookup = lookupVolume(await client.listPods(), pod.volumeId);
  if (lookup.kind !== 'found') return volumeReadingOf(lookup, new Map()) ?? { kind: 'unreadable' };
  const pods = await Promise.all(
    lookup.podIds.map(async (podId) => ({ podId, observation: await client.observePod(podId) })),
  );
  return { kind: 'found', pods };
}
