import { podRuns, type PodRun, type PodRunRecords, type RunAction, type RunReadyEdge } from './pod-runs';

const T0 = Date.parse('2026-12-01T10:00:00.000Z');
const at = (ms: number): string => new Date(T0 + ms).toISOString();
const S = 1000;
const NOW = T0 + 3600 * S;

function act(
  ms: number,
  action: string,
  podId: string | null,
  overrides: Partial<RunAction> = {},
): RunAction {
  return { at: at(ms), action, podId, gpuId: null, pricePerHour: null, ok: true, trigger: 't', ...overrides };
}
const edge = (ms: number, podId: string | null, overrides: Partial<RunReadyEdge> = {}): RunReadyEdge => ({
  at: at(ms),
  podId,
  gpuId: null,
  pricePerHour: null,
  ...overrides,
});
const recs = (actions: RunAction[], ready: RunReadyEdge[] = []): PodRunRecords => ({
  actions,
  ready,
  wakes: [],
});

/** A whole run with nothing known; each case overrides what it decides. */
function run(overrides: Partial<PodRun>): PodRun {
  return {
    podId: 'p1',
    gpuId: null,
    pricePerHour: null,
    startedAt: null,
    readyAt: null,
    stoppedAt: null,
    uptimeSeconds: null,
    timeToReadySeconds: null,
    usableSeconds: null,
    stopTrigger: null,
    estimatedCostUsd: null,
    ...overrides,
  };
}

describe('podRuns: which actions make runs', () => {
  it.each<[string, RunAction[], PodRun[]]>([
    [
      'a Start and a Stop',
      [act(0, 'Start', 'p1'), act(60 * S, 'Stop', 'p1')],
      [
        run({
          startedAt: at(0),
          stoppedAt: at(60 * S),
          uptimeSeconds: 60,
          usableSeconds: 0,
          stopTrigger: 't',
        }),
      ],
    ],
    [
      'a Create and a Terminate',
      [act(0, 'Create', 'p1'), act(60 * S, 'Terminate', 'p1')],
      [
        run({
          startedAt: at(0),
          stoppedAt: at(60 * S),
          uptimeSeconds: 60,
          usableSeconds: 0,
          stopTrigger: 't',
        }),
      ],
    ],
    ['a KeepAlive of a pod is no stop', [act(0, 'KeepAlive', 'p1')], []],
    ['a refused Stop is no stop', [act(0, 'Stop', 'p1', { ok: false })], []],
    ['a Stop without a pod id is nothing', [act(0, 'Stop', null)], []],
    ['an action at no readable time is skipped', [act(0, 'Start', 'p1', { at: 'yesterday' })], []],
    [
      'records in any order are read by time',
      [act(0, 'Start', 'p1'), act(60 * S, 'Stop', 'p1'), act(30 * S, 'Stop', 'p1', { trigger: 'first' })],
      [
        run({
          startedAt: at(0),
          stoppedAt: at(30 * S),
          uptimeSeconds: 30,
          usableSeconds: 0,
          stopTrigger: 'first',
        }),
      ],
    ],
    [
      'a start and a stop in the same millisecond: the older record (listed later) comes first',
      [act(0, 'Stop', 'p1'), act(0, 'Start', 'p1')],
      [run({ startedAt: at(0), stoppedAt: at(0), uptimeSeconds: 0, usableSeconds: 0, stopTrigger: 't' })],
    ],
    [
      'a stop-only run stays one run when stopped again',
      [
        act(90 * S, 'Terminate', 'p1', { trigger: 'second' }),
        act(30 * S, 'Stop', 'p1', { trigger: 'first' }),
      ],
      [run({ stoppedAt: at(30 * S), stopTrigger: 'first' })],
    ],
    [
      'a start after a stop-only run is a new run',
      [act(90 * S, 'Start', 'p1'), act(30 * S, 'Stop', 'p1')],
      [
        run({ startedAt: at(90 * S), uptimeSeconds: 3510, usableSeconds: 0 }),
        run({ stoppedAt: at(30 * S), stopTrigger: 't' }),
      ],
    ],
  ])('%s', (_rule, actions, expected) => {
    expect(podRuns(recs(actions), NOW, 20)).toEqual(expected);
  });
});

describe('podRuns: times and the ready edge', () => {
  it.each<[string, PodRunRecords, number, PodRun]>([
    [
      'seconds are rounded to a tenth',
      recs([act(0, 'Start', 'p1'), act(1250, 'Stop', 'p1')], [edge(1000, 'p1')]),
      NOW,
      run({
        startedAt: at(0),
        readyAt: at(1000),
        stoppedAt: at(1250),
        uptimeSeconds: 1.3,
        timeToReadySeconds: 1,
        usableSeconds: 0.3,
        stopTrigger: 't',
      }),
    ],
    [
      'a start after now counts no negative uptime',
      recs([act(10 * S, 'Start', 'p1')]),
      T0,
      run({ startedAt: at(10 * S), uptimeSeconds: 0, usableSeconds: 0 }),
    ],
    [
      'the earliest ready edge inside the run, whatever the order',
      recs(
        [act(0, 'Start', 'p1'), act(100 * S, 'Stop', 'p1')],
        [edge(50 * S, 'p1'), edge(20 * S, 'p1'), edge(40 * S, 'p1')],
      ),
      NOW,
      run({
        startedAt: at(0),
        readyAt: at(20 * S),
        stoppedAt: at(100 * S),
        uptimeSeconds: 100,
        timeToReadySeconds: 20,
        usableSeconds: 80,
        stopTrigger: 't',
      }),
    ],
    [
      'a ready edge at the very start and one at the very stop both count; the start wins',
      recs([act(0, 'Start', 'p1'), act(100 * S, 'Stop', 'p1')], [edge(100 * S, 'p1'), edge(0, 'p1')]),
      NOW,
      run({
        startedAt: at(0),
        readyAt: at(0),
        stoppedAt: at(100 * S),
        uptimeSeconds: 100,
        timeToReadySeconds: 0,
        usableSeconds: 100,
        stopTrigger: 't',
      }),
    ],
    [
      'a ready edge exactly at the stop counts, with no usable time',
      recs([act(0, 'Start', 'p1'), act(100 * S, 'Stop', 'p1')], [edge(100 * S, 'p1')]),
      NOW,
      run({
        startedAt: at(0),
        readyAt: at(100 * S),
        stoppedAt: at(100 * S),
        uptimeSeconds: 100,
        timeToReadySeconds: 100,
        usableSeconds: 0,
        stopTrigger: 't',
      }),
    ],
    [
      'a ready edge after the stop, at no readable time or of another pod is not the run’s',
      recs(
        [act(0, 'Start', 'p1'), act(100 * S, 'Stop', 'p1')],
        [edge(101 * S, 'p1'), edge(50 * S, 'p1', { at: 'soon' }), edge(50 * S, 'p2'), edge(50 * S, null)],
      ),
      NOW,
      run({
        startedAt: at(0),
        stoppedAt: at(100 * S),
        uptimeSeconds: 100,
        usableSeconds: 0,
        stopTrigger: 't',
      }),
    ],
    [
      'a running run takes ready edges up to now, not after',
      recs([act(0, 'Start', 'p1')], [edge(3601 * S, 'p1'), edge(3600 * S, 'p1')]),
      NOW,
      run({
        startedAt: at(0),
        readyAt: at(3600 * S),
        uptimeSeconds: 3600,
        timeToReadySeconds: 3600,
        usableSeconds: 0,
      }),
    ],
    [
      'a stop-only run takes a ready edge before its stop: usable time known, time to ready not',
      recs([act(600 * S, 'Stop', 'p1')], [edge(100 * S, 'p1')]),
      NOW,
      run({ readyAt: at(100 * S), stoppedAt: at(600 * S), usableSeconds: 500, stopTrigger: 't' }),
    ],
  ])('%s', (_rule, records, now, expected) => {
    expect(podRuns(records, now, 20)).toEqual([expected]);
  });
});

describe('podRuns: GPU, price and cost', () => {
  it.each<[string, PodRunRecords, [string | null, number | null, number | null]]>([
    [
      'GPU and price are found apart: the GPU from the start, the price from the stop',
      recs([
        act(0, 'Start', 'p1', { gpuId: 'A40' }),
        act(3600 * S, 'Stop', 'p1', { gpuId: 'L4', pricePerHour: 2 }),
      ]),
      ['A40', 2, 2],
    ],
    [
      'the start’s price before the stop’s',
      recs([act(0, 'Start', 'p1', { pricePerHour: 1 }), act(3600 * S, 'Stop', 'p1', { pricePerHour: 2 })]),
      [null, 1, 1],
    ],
    [
      'two ready edges at the same instant: the first listed gives the listing',
      recs(
        [act(0, 'Start', 'p1'), act(3600 * S, 'Stop', 'p1')],
        [
          edge(60 * S, 'p1', { gpuId: 'L4', pricePerHour: 0.4 }),
          edge(60 * S, 'p1', { gpuId: 'X', pricePerHour: 9 }),
        ],
      ),
      ['L4', 0.4, 0.4],
    ],
    [
      'cost is price × uptime, rounded to a millionth of a dollar',
      recs([act(0, 'Start', 'p1', { pricePerHour: 0.7 }), act(7 * S, 'Stop', 'p1')]),
      [null, 0.7, 0.001361],
    ],
    ['no price: no cost', recs([act(0, 'Start', 'p1'), act(3600 * S, 'Stop', 'p1')]), [null, null, null]],
  ])('%s', (_rule, records, [gpuId, price, cost]) => {
    const [only] = podRuns(records, NOW, 20);
    expect([only.gpuId, only.pricePerHour, only.estimatedCostUsd]).toEqual([gpuId, price, cost]);
  });
});

describe('podRuns: order and limit', () => {
  it('newest first by start, a stop-only run by its stop', () => {
    const runs = podRuns(
      recs([
        act(100 * S, 'Start', 'a'),
        act(300 * S, 'Stop', 'b'),
        act(200 * S, 'Start', 'c'),
        act(50 * S, 'Stop', 'd'),
      ]),
      NOW,
      20,
    );
    expect(runs.map((r) => r.podId)).toEqual(['b', 'c', 'a', 'd']);
  });

  it.each<[number, string[]]>([
    [0, []],
    [1, ['c']],
    [3, ['c', 'b', 'a']],
    [4, ['c', 'b', 'a']],
  ])('limit %s keeps %j', (limit, pods) => {
    const actions = [act(0, 'Start', 'a'), act(S, 'Start', 'b'), act(2 * S, 'Start', 'c')];
    expect(podRuns(recs(actions), NOW, limit).map((r) => r.podId)).toEqual(pods);
  });
});
