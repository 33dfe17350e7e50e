import type { ListedPod, VolumeLookup } from '../domain/pod';
import type { PodSignalOf } from './pod-signal';
import { listedAsUp, seenUpPods } from './seen-up';

function listed(id: string, status: string | null): ListedPod {
  return { id, name: null, status, volumeIds: ['v'], costPerHr: 0.5, gpuId: 'g', createdAt: null };
}
const FOUND_AB: VolumeLookup = { kind: 'found', podIds: ['a', 'b'] };
const LIST_AB = [listed('a', 'RUNNING'), listed('b', 'RUNNING')];

describe(listedAsUp.name, () => {
  it.each<[string, ListedPod | undefined, boolean]>([
    ['RUNNING', listed('a', 'RUNNING'), true],
    ['CREATED', listed('a', 'CREATED'), true],
    ['a status it does not know', listed('a', 'PAUSED'), true],
    ['no status at all (fail closed)', listed('a', null), true],
    ['not listed at all (fail closed)', undefined, true],
    ['EXITED', listed('a', 'EXITED'), false],
    ['exited in lower case', listed('a', 'exited'), false],
    ['TERMINATED', listed('a', 'TERMINATED'), false],
  ])('%s', (_rule, entry, up) => {
    expect(listedAsUp(entry)).toBe(up);
  });
});

describe(seenUpPods.name, () => {
  it.each<[string, VolumeLookup, PodSignalOf[], ListedPod[], string[], string[]]>([
    [
      'pods whose own read says up',
      FOUND_AB,
      [
        { podId: 'a', signal: 'Busy' },
        { podId: 'b', signal: 'Booting' },
      ],
      LIST_AB,
      [],
      ['a', 'b'],
    ],
    [
      "a pod's own read saying down wins over the list",
      FOUND_AB,
      [
        { podId: 'a', signal: 'NotRunning' },
        { podId: 'b', signal: 'Idle' },
      ],
      LIST_AB,
      [],
      ['b'],
    ],
    [
      "where the pod's read failed, the list's status decides",
      FOUND_AB,
      [
        { podId: 'a', signal: 'Unknown' },
        { podId: 'b', signal: 'Unknown' },
      ],
      [listed('a', 'RUNNING'), listed('b', 'EXITED')],
      [],
      ['a'],
    ],
    [
      'a pod the tick did not read at all is judged by the list',
      FOUND_AB,
      [{ podId: 'a', signal: 'UnreachableButRunning' }],
      LIST_AB,
      [],
      ['a', 'b'],
    ],
    [
      'an unreadable list keeps what was last seen up',
      { kind: 'unreadable', reason: 'HTTP 500' },
      [],
      [],
      ['x', 'y'],
      ['x', 'y'],
    ],
    ['no pod on the volume: none up', { kind: 'not-found' }, [], [], ['x'], []],
  ])('%s', (_rule, lookup, perPod, list, previous, expected) => {
    expect(seenUpPods(lookup, perPod, list, previous)).toEqual(expected);
  });
});
