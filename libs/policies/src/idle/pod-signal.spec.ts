import fc from 'fast-check';
import type { PodObservation, PodStatus, VolumeLookup } from '../domain/pod';
import type { ActivityReading } from './activity-classification';
import {
  aggregateSignals,
  classifyPodSignal,
  isUpSignal,
  stopTargets,
  type PodSignal,
  type PodSignalOf,
  type VolumeSignal,
} from './pod-signal';

function found(status: PodStatus, gpuCount = 1): PodObservation {
  return { kind: 'found', podId: 'p1', status, gpuCount };
}
const NOT_FOUND: PodObservation = { kind: 'not-found', podId: 'p1' };
const UNREADABLE: PodObservation = { kind: 'unreadable', podId: 'p1', reason: 'timeout' };

const ALL_SIGNALS: readonly PodSignal[] = [
  'Busy',
  'Idle',
  'UnreachableButRunning',
  'Booting',
  'NotRunning',
  'Unknown',
];

describe(classifyPodSignal.name, () => {
  it.each<[string, ActivityReading | null, PodObservation | null, PodSignal]>([
    ['metrics that answered Busy decide, whatever the control plane says', 'Busy', found('Exited'), 'Busy'],
    ['metrics that answered Busy decide without an observation', 'Busy', null, 'Busy'],
    ['metrics that answered Idle decide', 'Idle', found('Running'), 'Idle'],
    ['metrics that answered Idle decide even over an unreadable observation', 'Idle', UNREADABLE, 'Idle'],
    [
      'unreachable metrics on a Running pod still bill: UnreachableButRunning',
      null,
      found('Running'),
      'UnreachableButRunning',
    ],
    [
      'unreachable metrics on Running with no GPU still bill',
      null,
      found('Running', 0),
      'UnreachableButRunning',
    ],
    ['unreachable metrics while Provisioning is Booting', null, found('Provisioning'), 'Booting'],
    ['unreachable metrics while Starting is Booting', null, found('Starting'), 'Booting'],
    ['an Exited pod is NotRunning', null, found('Exited'), 'NotRunning'],
    [
      'an Error pod is not down (it may bill): Unknown, left to the ERROR guard',
      null,
      found('Error'),
      'Unknown',
    ],
    ['a Terminated pod is NotRunning', null, found('Terminated'), 'NotRunning'],
    ['an Unknown status is Unknown', null, found('Unknown'), 'Unknown'],
    ['a pod the control plane cannot find is Unknown, not down', null, NOT_FOUND, 'Unknown'],
    ['an unreadable observation is Unknown, not down', null, UNREADABLE, 'Unknown'],
    ['no observation at all is Unknown', null, null, 'Unknown'],
  ])('%s', (_rule, scrape, observation, expected) => {
    expect(classifyPodSignal(scrape, observation)).toBe(expected);
  });
});

describe(isUpSignal.name, () => {
  it.each<[PodSignal, boolean]>([
    ['Busy', true],
    ['Idle', true],
    ['UnreachableButRunning', true],
    ['Booting', true],
    ['NotRunning', false],
    ['Unknown', false],
  ])('%s observed up: %s', (signal, up) => {
    expect(isUpSignal(signal)).toBe(up);
  });
});

function pods(...entries: Array<[string, PodSignal]>): PodSignalOf[] {
  return entries.map(([podId, signal]) => ({ podId, signal }));
}
function listed(perPod: readonly PodSignalOf[]): VolumeLookup {
  return { kind: 'found', podIds: perPod.map((pod) => pod.podId) };
}

describe(aggregateSignals.name, () => {
  it.each<[string, VolumeLookup, PodSignalOf[], VolumeSignal]>([
    [
      'an unreadable volume lookup is Unknown, never "nothing to stop"',
      { kind: 'unreadable', reason: 'HTTP 500' },
      pods(['a', 'Busy']),
      { signal: 'Unknown', podId: null },
    ],
    ['no pod on the volume is NotRunning', { kind: 'not-found' }, [], { signal: 'NotRunning', podId: null }],
    [
      'an empty pod list is NotRunning',
      { kind: 'found', podIds: [] },
      [],
      { signal: 'NotRunning', podId: null },
    ],
    [
      'a listed pod nobody classified is Unknown, not down',
      { kind: 'found', podIds: ['a'] },
      [],
      { signal: 'Unknown', podId: 'a' },
    ],
    [
      'an unclassified listed pod outranks a NotRunning sibling',
      { kind: 'found', podIds: ['a', 'b'] },
      pods(['a', 'NotRunning']),
      { signal: 'Unknown', podId: 'b' },
    ],
    [
      'an unclassified listed pod does not outrank an Idle sibling',
      { kind: 'found', podIds: ['a', 'b'] },
      pods(['a', 'Idle']),
      { signal: 'Idle', podId: 'a' },
    ],
  ])('%s', (_rule, lookup, perPod, expected) => {
    expect(aggregateSignals(lookup, perPod)).toEqual(expected);
  });

  // One row per row of the seed's signal table, then the ranking rules.
  it.each<[string, PodSignalOf[], VolumeSignal]>([
    [
      'Busy anywhere wins over an Idle sibling listed first',
      pods(['a', 'Idle'], ['b', 'Busy']),
      { signal: 'Busy', podId: 'b' },
    ],
    [
      'Busy anywhere wins over every other signal',
      pods(
        ['a', 'UnreachableButRunning'],
        ['b', 'Booting'],
        ['c', 'Unknown'],
        ['d', 'NotRunning'],
        ['e', 'Busy'],
      ),
      { signal: 'Busy', podId: 'e' },
    ],
    ['Idle wins over Booting', pods(['a', 'Booting'], ['b', 'Idle']), { signal: 'Idle', podId: 'b' }],
    [
      'UnreachableButRunning wins over Booting',
      pods(['a', 'Booting'], ['b', 'UnreachableButRunning']),
      { signal: 'UnreachableButRunning', podId: 'b' },
    ],
    [
      'Booting wins over Unknown',
      pods(['a', 'Unknown'], ['b', 'Booting']),
      { signal: 'Booting', podId: 'b' },
    ],
    [
      'Unknown wins over NotRunning',
      pods(['a', 'NotRunning'], ['b', 'Unknown']),
      { signal: 'Unknown', podId: 'b' },
    ],
    [
      'every pod NotRunning is NotRunning, named by the first',
      pods(['a', 'NotRunning'], ['b', 'NotRunning']),
      { signal: 'NotRunning', podId: 'a' },
    ],
    [
      'a stale NotRunning pod listed first does not hide a billing Idle one',
      pods(['a', 'NotRunning'], ['b', 'Idle']),
      { signal: 'Idle', podId: 'b' },
    ],
    [
      'a stale NotRunning pod listed first does not hide a Running one without metrics',
      pods(['a', 'NotRunning'], ['b', 'UnreachableButRunning']),
      { signal: 'UnreachableButRunning', podId: 'b' },
    ],
    [
      'Idle and UnreachableButRunning rank equal: the first listed (Idle) wins',
      pods(['a', 'Idle'], ['b', 'UnreachableButRunning']),
      { signal: 'Idle', podId: 'a' },
    ],
    [
      'Idle and UnreachableButRunning rank equal: the first listed (UnreachableButRunning) wins',
      pods(['a', 'UnreachableButRunning'], ['b', 'Idle']),
      { signal: 'UnreachableButRunning', podId: 'a' },
    ],
    [
      'two Busy pods are named by the first',
      pods(['a', 'Busy'], ['b', 'Busy']),
      { signal: 'Busy', podId: 'a' },
    ],
    [
      'two Booting pods are named by the first',
      pods(['a', 'Booting'], ['b', 'Booting']),
      { signal: 'Booting', podId: 'a' },
    ],
    ['a single Idle pod is Idle', pods(['a', 'Idle']), { signal: 'Idle', podId: 'a' }],
  ])('%s', (_rule, perPod, expected) => {
    expect(aggregateSignals(listed(perPod), perPod)).toEqual(expected);
  });

  it('returns Busy, named by the first Busy pod, whenever any pod is Busy', () => {
    const signalsWithBusy = fc
      .tuple(
        fc.array(fc.constantFrom(...ALL_SIGNALS), { maxLength: 6 }),
        fc.array(fc.constantFrom(...ALL_SIGNALS), { maxLength: 6 }),
      )
      .map(([before, after]) => [...before, 'Busy' as const, ...after]);
    fc.assert(
      fc.property(signalsWithBusy, (signals) => {
        const perPod = signals.map((signal, index) => ({ podId: `pod-${index}`, signal }));
        expect(aggregateSignals(listed(perPod), perPod)).toEqual({
          signal: 'Busy',
          podId: `pod-${signals.indexOf('Busy')}`,
        });
      }),
    );
  });
});

describe(stopTargets.name, () => {
  it('every pod observed up is a target, in list order, and no other', () => {
    const perPod = pods(
      ['a', 'Busy'],
      ['b', 'NotRunning'],
      ['c', 'Idle'],
      ['d', 'Unknown'],
      ['e', 'UnreachableButRunning'],
      ['f', 'Booting'],
    );
    expect(stopTargets(perPod)).toEqual(['a', 'c', 'e', 'f']);
  });

  it('no pod observed up means no target', () => {
    expect(stopTargets(pods(['a', 'NotRunning'], ['b', 'Unknown']))).toEqual([]);
  });
});
