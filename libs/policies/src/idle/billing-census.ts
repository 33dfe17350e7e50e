import type { PodConfig } from '../config/config-types';
import type { PodList } from '../domain/pod';
import { listedAsUp } from './seen-up';

/** One configured pod's volume and how many pods on it the list shows billing compute. */
export interface VolumeBilling {
  readonly pod: string;
  readonly volume: string;
  readonly billing: number;
}

/**
 * For /metrics: per configured pod with a volume, the volume's pods the account-wide list does not show
 * EXITED or TERMINATED (a missing or unfamiliar status counts as billing: fail closed). Null when the
 * list is unreadable: a zero would read as "nothing bills".
 */
export function billingPerVolume(list: PodList, pods: readonly PodConfig[]): VolumeBilling[] | null {
  if (list.kind !== 'listed') return null;
  return pods
    .filter((pod) => pod.volumeId !== '')
    .map((pod) => ({
      pod: pod.name,
      volume: pod.volumeId,
      billing: list.pods.filter((entry) => entry.volumeIds.includes(pod.volumeId) && listedAsUp(entry))
        .length,
    }));
}

/** One configured pod's volume, one RunPod status, and how many pods on the volume the list shows in it. */
export interface VolumeStatus {
  readonly pod: string;
  readonly volume: string;
  readonly status: string;
  readonly count: number;
}

/**
 * For /metrics: per configured pod (with a volume), its pods counted by the
 * status the list shows (`UNKNOWN` when the list gives none), in a stable
 * order. Null when the list could not be read, as for billingPerVolume.
 */
export function statusesPerVolume(list: PodList, pods: readonly PodConfig[]): VolumeStatus[] | null {
  if (list.kind !== 'listed') return null;
  return pods
    .filter((pod) => pod.volumeId !== '')
    .flatMap((pod) => {
      const counts = new Map<string, number>();
      for (const entry of list.pods.filter((listed) => listed.volumeIds.includes(pod.volumeId))) {
        const status = entry.status ?? 'UNKNOWN';
        counts.set(status, (counts.get(status) ?? 0) + 1);
      }
      return [...counts.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([status, count]) => ({ pod: pod.name, volume: pod.volumeId, status, count }));
    });
}
