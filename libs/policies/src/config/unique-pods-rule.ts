import type { PodConfig } from './config-types';
import { quoteConfigValue } from './quote-config-value';

/**
 * Why a list of pods cannot be served, or null: names are case-insensitive route keys and a volume is one
 * pod, so two entries sharing either would wake or stop each other's pod. Blank volume ids are not
 * duplicates: each marks its own pod as unconfigured.
 */
export function findDuplicatePod(pods: readonly PodConfig[]): string | null {
  const nameIndex = new Map<string, number>();
  const volumeIndex = new Map<string, number>();
  for (const [index, pod] of pods.entries()) {
    const nameKey = pod.name.toLowerCase();
    const sameName = nameIndex.get(nameKey);
    if (sameName !== undefined) {
      return `pods[${index}].name "${pod.name}" duplicates pods[${sameName}].name "${pods[sameName].name}" (names are case-insensitive)`;
    }
    nameIndex.set(nameKey, index);
    if (pod.volumeId === '') continue;
    const sameVolume = volumeIndex.get(pod.volumeId);
    if (sameVolume !== undefined) {
      return `pods[${index}].volumeId ${quoteConfigValue(pod.volumeId)} duplicates pods[${sameVolume}].volumeId (one volume, one pod)`;
    }
    volumeIndex.set(pod.volumeId, index);
  }
  return null;
}
