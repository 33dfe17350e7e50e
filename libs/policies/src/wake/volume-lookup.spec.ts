import type { ListedPod, PodList } from '../domain/pod';
import { lookupVolume } from './volume-lookup';

const pod = (id: string, volumeIds: string[]): ListedPod => ({
  id,
  name: null,
  status: 'RUNNING',
  volumeIds,
  costPerHr: null,
  gpuId: null,
  createdAt: null,
});
const listed = (...pods: ListedPod[]): PodList => ({ kind: 'listed', pods });

describe('lookupVolume', () => {
  it('finds every pod on the volume in list order', () => {
    const list = listed(pod('b', ['vol-1']), pod('x', ['vol-2']), pod('a', ['vol-1']));
    expect(lookupVolume(list, 'vol-1')).toEqual({ kind: 'found', podIds: ['b', 'a'] });
  });

  it('lists a pod once even when it is listed twice or mounts the volume twice', () => {
    const list = listed(pod('a', ['vol-1', 'vol-1']), pod('b', ['vol-1']), pod('a', ['vol-1']));
    expect(lookupVolume(list, 'vol-1')).toEqual({ kind: 'found', podIds: ['a', 'b'] });
  });

  it('matches a pod that mounts several volumes on any of them', () => {
    const list = listed(pod('a', ['vol-0', 'vol-1', 'vol-2']));
    expect(lookupVolume(list, 'vol-2')).toEqual({ kind: 'found', podIds: ['a'] });
  });

  it.each([
    ['a different case', 'VOL-1'],
    ['a prefix', 'vol'],
    ['a longer id', 'vol-10'],
  ])('matches the volume id exactly, not %s', (_rule, volumeId) => {
    expect(lookupVolume(listed(pod('a', ['vol-1'])), volumeId)).toEqual({ kind: 'not-found' });
  });

  it('is not-found for a readable list with no pod on the volume, including an empty list', () => {
    expect(lookupVolume(listed(pod('a', ['vol-2']), pod('b', [])), 'vol-1')).toEqual({ kind: 'not-found' });
    expect(lookupVolume(listed(), 'vol-1')).toEqual({ kind: 'not-found' });
  });

  it('keeps an unreadable list unreadable: a failed list is never "no pod"', () => {
    expect(lookupVolume({ kind: 'unreadable', reason: 'http 500' }, 'vol-1')).toEqual({
      kind: 'unreadable',
      reason: 'http 500',
    });
  });

  it('refuses to call a blank volume id absent', () => {
    expect(lookupVolume(listed(pod('a', ['vol-1'])), '  ')).toEqual({
      kind: 'unreadable',
      reason: 'blank volume id',
    });
  });
});
