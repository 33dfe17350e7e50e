import type { VolumeLookup } from '../domain/pod';
import { neverRanDue, nextNeverRanClocks, type NeverRanClocks } from './never-ran';
import type { PodSignalOf } from './pod-signal';

const NOW = 1_000_000;
const FOUND: VolumeLookup = { kind: 'found', podIds: ['a', 'b'] };

describe(nextNeverRanClocks.name, () => {
  it.each<[string, NeverRanClocks, VolumeLookup, PodSignalOf[], NeverRanClocks]>([
    ['a booting pod starts its clock now', {}, FOUND, [{ podId: 'a', signal: 'Booting' }], { a: NOW }],
    ['a booting pod keeps the clock it had', { a: 5 }, FOUND, [{ podId: 'a', signal: 'Booting' }], { a: 5 }],
    [
      'a runtime (even without metrics) drops the clock',
      { a: 5 },
      FOUND,
      [{ podId: 'a', signal: 'UnreachableButRunning' }],
      {},
    ],
    ['serving drops it', { a: 5 }, FOUND, [{ podId: 'a', signal: 'Busy' }], {}],
    ['down drops it', { a: 5 }, FOUND, [{ podId: 'a', signal: 'NotRunning' }], {}],
    ['Unknown keeps a clock', { a: 5 }, FOUND, [{ podId: 'a', signal: 'Unknown' }], { a: 5 }],
    ['Unknown starts none', {}, FOUND, [{ podId: 'a', signal: 'Unknown' }], {}],
    ['an unread pod keeps its clock', { b: 7 }, FOUND, [{ podId: 'a', signal: 'Busy' }], { b: 7 }],
    ['a pod gone from the volume loses its clock', { c: 5 }, FOUND, [], {}],
    [
      'an unreadable list keeps every clock',
      { a: 5, c: 6 },
      { kind: 'unreadable', reason: 'x' },
      [],
      { a: 5, c: 6 },
    ],
    ['an empty volume has none', { a: 5 }, { kind: 'not-found' }, [], {}],
    [
      'each pod has its own clock beside a busy sibling',
      { b: 9 },
      FOUND,
      [
        { podId: 'a', signal: 'Busy' },
        { podId: 'b', signal: 'Booting' },
      ],
      { b: 9 },
    ],
  ])('%s', (_rule, previous, lookup, perPod, expected) => {
    expect(nextNeverRanClocks(previous, lookup, perPod, NOW)).toEqual(expected);
  });

  it('Unknown without a clock adds no key for the pod, not even an undefined one', () => {
    const next = nextNeverRanClocks({}, FOUND, [{ podId: 'a', signal: 'Unknown' }], NOW);
    expect(Object.keys(next)).toEqual([]);
  });
});

describe(neverRanDue.name, () => {
  it.each<[string, NeverRanClocks, number, string[]]>([
    ['due at exactly the grace', { a: NOW - 60_000 }, 60_000, ['a']],
    ['not due one ms before', { a: NOW - 59_999 }, 60_000, []],
    ['only the due ones', { a: NOW - 90_000, b: NOW - 10_000 }, 60_000, ['a']],
    ['a grace of 0 disables it', { a: 0 }, 0, []],
  ])('%s', (_rule, clocks, grace, expected) => {
    expect(neverRanDue(clocks, grace, NOW)).toEqual(expected);
  });
});
