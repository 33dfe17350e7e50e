import { arrayField, isRecord, nonBlankStringField, recordField } from './json-reading';

/** The network volumes a pod object mounts (`mounts.network[].volumeId`), as the list and the pod read both carry them. */
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
