import fc from 'fast-check';
import { POD_STATUSES, type PodObservation, type PodStatus } from '../domain/pod';
import {
  decidePod,
  decideVolume,
  type VolumeDecision,
  type VolumePod,
  type WakeVerdict,
} from './wake-decision';

const found = (podId: string, status: PodStatus, gpuCount = 1): PodObservation => ({
  kind: 'found',
  podId,
  status,
  gpuCount,
});
const notFound = (podId: string): PodObservation => ({ kind: 'not-found', podId });
const unreadable = (podId: string): PodObservation => ({ kind: 'unreadable', podId, reason: 'HTTP 502' });
const pod = (observation: PodObservation, startAttempted = false): VolumePod => ({
  observation,
  startAttempted,
});

describe('decidePod', () => {
  it.each([true, false])(
    'a failed read is never "no pod": unreadable waits and repolls (startAttempted=%s)',
    (start) => {
      expect(decidePod(unreadable('p1'), start)).toBe('WaitAndRepoll');
    },
  );

  it.each([true, false])(
    'an affirmative not-found asks for a replacement, to be re-confirmed by volume lookup (startAttempted=%s)',
    (start) => {
      expect(decidePod(notFound('p1'), start)).toBe('CreateReplacement');
    },
  );

  // Every PodStatus × startAttempted × gpuCount.
  const rows: Array<[PodStatus, boolean, number, WakeVerdict]> = [
    ['Running', false, 0, 'CreateReplacement'],
    ['Running', false, 1, 'Done'],
    ['Running', false, 2, 'Done'],
    ['Running', true, 0, 'CreateReplacement'],
    ['Running', true, 1, 'Done'],
    ['Running', true, 2, 'Done'],
    ['Exited', false, 0, 'StartExisting'],
    ['Exited', false, 1, 'StartExisting'],
    ['Exited', false, 2, 'StartExisting'],
    ['Exited', true, 0, 'CreateReplacement'],
    ['Exited', true, 1, 'CreateReplacement'],
    ['Exited', true, 2, 'CreateReplacement'],
    ['Error', false, 0, 'StartExisting'],
    ['Error', false, 1, 'StartExisting'],
    ['Error', false, 2, 'StartExisting'],
    ['Error', true, 0, 'CreateReplacement'],
    ['Error', true, 1, 'CreateReplacement'],
    ['Error', true, 2, 'CreateReplacement'],
    ['Terminated', false, 0, 'CreateReplacement'],
    ['Terminated', false, 1, 'CreateReplacement'],
    ['Terminated', false, 2, 'CreateReplacement'],
    ['Terminated', true, 0, 'CreateReplacement'],
    ['Terminated', true, 1, 'CreateReplacement'],
    ['Terminated', true, 2, 'CreateReplacement'],
    ['Provisioning', false, 0, 'WaitAndRepoll'],
    ['Provisioning', false, 1, 'WaitAndRepoll'],
    ['Provisioning', false, 2, 'WaitAndRepoll'],
    ['Provisioning', true, 0, 'WaitAndRepoll'],
    ['Provisioning', true, 1, 'WaitAndRepoll'],
    ['Provisioning', true, 2, 'WaitAndRepoll'],
    ['Starting', false, 0, 'WaitAndRepoll'],
    ['Starting', false, 1, 'WaitAndRepoll'],
    ['Starting', false, 2, 'WaitAndRepoll'],
    ['Starting', true, 0, 'WaitAndRepoll'],
    ['Starting', true, 1, 'WaitAndRepoll'],
    ['Starting', true, 2, 'WaitAndRepoll'],
    ['Unknown', false, 0, 'WaitAndRepoll'],
    ['Unknown', false, 1, 'WaitAndRepoll'],
    ['Unknown', false, 2, 'WaitAndRepoll'],
    ['Unknown', true, 0, 'WaitAndRepoll'],
    ['Unknown', true, 1, 'WaitAndRepoll'],
    ['Unknown', true, 2, 'WaitAndRepoll'],
  ];

  it('the table covers every status, both start flags and 0/1/2 GPUs', () => {
    expect(rows).toHaveLength(POD_STATUSES.length * 2 * 3);
    for (const status of POD_STATUSES) {
      expect(rows.filter((row) => row[0] === status)).toHaveLength(6);
    }
  });

  it.each(rows)('found %s, startAttempted=%s, %i GPU(s) → %s', (status, start, gpuCount, verdict) => {
    expect(decidePod(found('p1', status, gpuCount), start)).toBe(verdict);
  });

  it('Running needs at least one attached GPU to be Done (a fraction below 1 is not a GPU)', () => {
    expect(decidePod(found('p1', 'Running', 0.5), false)).toBe('CreateReplacement');
    expect(decidePod(found('p1', 'Running', 1), false)).toBe('Done');
  });

  it('never asks to start or create a pod that is provisioning, starting or unknown', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<PodStatus>('Provisioning', 'Starting', 'Unknown'),
        fc.boolean(),
        fc.nat(8),
        (status, start, gpuCount) => decidePod(found('p', status, gpuCount), start) === 'WaitAndRepoll',
      ),
    );
  });
});

describe('decideVolume', () => {
  it.each<[string, VolumePod[], VolumeDecision]>([
    ['an empty volume creates with nothing stale', [], { kind: 'create', stalePodIds: [] }],
    [
      'a lone serving pod is done with nothing stale',
      [pod(found('a', 'Running'))],
      { kind: 'done', servingPodId: 'a', stalePodIds: [] },
    ],
    [
      'a serving pod wins over an in-flight sibling, which becomes stale',
      [pod(found('a', 'Starting')), pod(found('b', 'Running'))],
      { kind: 'done', servingPodId: 'b', stalePodIds: ['a'] },
    ],
    [
      'a serving pod wins over an unreadable sibling',
      [pod(unreadable('a')), pod(found('b', 'Running', 2))],
      { kind: 'done', servingPodId: 'b', stalePodIds: ['a'] },
    ],
    [
      'the first serving pod in list order wins and a second serving pod is stale',
      [pod(found('a', 'Running')), pod(found('b', 'Running'))],
      { kind: 'done', servingPodId: 'a', stalePodIds: ['b'] },
    ],
    [
      'every sibling of the serving pod is stale, in list order',
      [
        pod(found('x', 'Exited')),
        pod(notFound('y')),
        pod(found('s', 'Running')),
        pod(found('z', 'Terminated')),
        pod(found('w', 'Provisioning')),
      ],
      { kind: 'done', servingPodId: 's', stalePodIds: ['x', 'y', 'z', 'w'] },
    ],
    [
      'a serving pod listed twice is not its own stale sibling',
      [pod(found('a', 'Running')), pod(found('b', 'Exited')), pod(found('a', 'Running'))],
      { kind: 'done', servingPodId: 'a', stalePodIds: ['b'] },
    ],
    [
      'a stale pod listed twice is terminated once',
      [pod(found('a', 'Running')), pod(found('b', 'Exited')), pod(found('b', 'Exited'))],
      { kind: 'done', servingPodId: 'a', stalePodIds: ['b'] },
    ],
    [
      'an in-flight pod beats a startable one: repoll, never start',
      [pod(found('a', 'Exited')), pod(found('b', 'Starting'))],
      { kind: 'repoll', inFlightPodIds: ['b'] },
    ],
    [
      'an in-flight pod beats a replaceable one: repoll, never create',
      [pod(found('a', 'Terminated')), pod(found('b', 'Provisioning'))],
      { kind: 'repoll', inFlightPodIds: ['b'] },
    ],
    [
      'an unreadable pod alone repolls (a failed read is never "no pod")',
      [pod(unreadable('a'))],
      { kind: 'repoll', inFlightPodIds: ['a'] },
    ],
    [
      'an Unknown pod repolls even after a start',
      [pod(found('a', 'Unknown'), true)],
      { kind: 'repoll', inFlightPodIds: ['a'] },
    ],
    [
      'repoll names every in-flight pod in list order, once each',
      [
        pod(found('a', 'Provisioning')),
        pod(found('c', 'Exited')),
        pod(found('b', 'Unknown')),
        pod(unreadable('d')),
        pod(found('a', 'Provisioning')),
      ],
      { kind: 'repoll', inFlightPodIds: ['a', 'b', 'd'] },
    ],
    ['a stopped pod not yet started is started', [pod(found('a', 'Exited'))], { kind: 'start', podId: 'a' }],
    [
      'the first startable pod in list order is chosen',
      [pod(found('x', 'Terminated')), pod(found('a', 'Error')), pod(found('b', 'Exited'))],
      { kind: 'start', podId: 'a' },
    ],
    [
      'a startable pod beats replacing a Running pod with no GPU',
      [pod(found('a', 'Running', 0)), pod(found('b', 'Error'))],
      { kind: 'start', podId: 'b' },
    ],
    [
      'a pod that stopped again after our start is not started twice',
      [pod(found('a', 'Exited'), true), pod(found('b', 'Exited'))],
      { kind: 'start', podId: 'b' },
    ],
    [
      'when every pod asks for a replacement, create with all of them stale, in list order',
      [
        pod(found('a', 'Terminated')),
        pod(found('b', 'Exited'), true),
        pod(found('c', 'Running', 0)),
        pod(notFound('d')),
        pod(found('e', 'Error'), true),
      ],
      { kind: 'create', stalePodIds: ['a', 'b', 'c', 'd', 'e'] },
    ],
    [
      'a replaceable pod listed twice is stale once',
      [pod(found('a', 'Terminated')), pod(found('a', 'Terminated'))],
      { kind: 'create', stalePodIds: ['a'] },
    ],
  ])('%s', (_rule, pods, decision) => {
    expect(decideVolume(pods)).toEqual(decision);
  });

  const observationArb: fc.Arbitrary<PodObservation> = fc.oneof(
    fc.record({
      kind: fc.constant('found' as const),
      podId: fc.constantFrom('a', 'b', 'c', 'd'),
      status: fc.constantFrom(...POD_STATUSES),
      gpuCount: fc.nat(3),
    }),
    fc.record({ kind: fc.constant('not-found' as const), podId: fc.constantFrom('a', 'b', 'c', 'd') }),
    fc.record({
      kind: fc.constant('unreadable' as const),
      podId: fc.constantFrom('a', 'b', 'c', 'd'),
      reason: fc.string(),
    }),
  );
  const podsArb = fc.array(fc.record({ observation: observationArb, startAttempted: fc.boolean() }), {
    maxLength: 6,
  });
  const inFlight = (observation: PodObservation): boolean =>
    observation.kind === 'unreadable' ||
    (observation.kind === 'found' && ['Provisioning', 'Starting', 'Unknown'].includes(observation.status));

  it('never starts or creates while any pod is provisioning, starting, unknown or unreadable', () => {
    fc.assert(
      fc.property(podsArb, (pods) => {
        const decision = decideVolume(pods);
        if (pods.some((p) => inFlight(p.observation))) {
          expect(['done', 'repoll']).toContain(decision.kind);
        }
      }),
    );
  });

  it('creates only when every pod asks for a replacement, and then names each pod as stale', () => {
    fc.assert(
      fc.property(podsArb, (pods) => {
        const decision = decideVolume(pods);
        const allReplaceable = pods.every(
          (p) => decidePod(p.observation, p.startAttempted) === 'CreateReplacement',
        );
        expect(decision.kind === 'create').toBe(allReplaceable);
        if (decision.kind === 'create') {
          expect(new Set(decision.stalePodIds)).toEqual(new Set(pods.map((p) => p.observation.podId)));
        }
      }),
    );
  });

  it('a done decision serves a Running pod with a GPU and never lists it as stale', () => {
    fc.assert(
      fc.property(podsArb, (pods) => {
        const decision = decideVolume(pods);
        if (decision.kind === 'done') {
          expect(
            pods.some(
              (p) =>
                p.observation.kind === 'found' &&
                p.observation.podId === decision.servingPodId &&
                p.observation.status === 'Running' &&
                p.observation.gpuCount >= 1,
            ),
          ).toBe(true);
          expect(decision.stalePodIds).not.toContain(decision.servingPodId);
        }
      }),
    );
  });
});
