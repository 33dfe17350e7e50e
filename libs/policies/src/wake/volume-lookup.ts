import type { PodList, VolumeLookup } from '../domain/pod';

/**
 * Every pod mounting the volume, in list order, each id once. A stale pod and
 * its replacement can share the volume, and the wake needs all of them. An
 * unreadable list stays unreadable: a failed list is never "no pod".
 */
export function lookupVolume(list: PodList, volumeId: string): VolumeLookup {
  if (list.kind === 'unreadable') {
    return { kind: 'unreadable', reason: list.reason };
  }
  if (volumeId.trim() === '') {
    // Nothing mounts a blank volume, and "no pod" is the gate before a create: refuse to say it.
    return { kind: 'unreadable', reason: 'blank volume id' };
  }
  const podIds: string[] = [];
  for (const pod of list.pods) {
    if (pod.volumeIds.includes(volumeId) && !podIds.includes(pod.id)) {
      podIds.push(pod.id);
    }
  }
  return podIds.length === 0 ? { kind: 'not-found' } : { kind: 'found', podIds };
}
