import { podRuns, type PodRun, type PodRunRecords, type RunAction, type RunReadyEdge } from './pod-runs';

const T0 = Date.parse('2026-12-01T10:00:00.000Z');
const at = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();
const NOW = T0 + 3_600_000;

function act(
  seconds: number,
  action: string,
  podId: string | null,
  overrides: Partial<RunAction> = {},
): RunAction {
  return {
    at: at(seconds),
    action,
    podId,
    gpuId: null,
    pricePerHour: null,
    ok: true,
    trigger: STARTS.includes(action) ? 'wake' : 'idle',
    ...overrides,
  };
}
const STARTS = ['Start', 'Create'];
const create = (s: number, podId: string, price = 0.36): RunAction =>
  act(s, 'Create', podId, { gpuId: 'NVIDIA A40', pricePerHour: price });
const ready = (s: number, podId: string, price: number | null = null): RunReadyEdge => ({
  at: at(s),
  podId,
  gpuId: price === null ? null : 'NVIDIA L4',
  pricePerHour: price,
});

/** The run as [podId, startedAt s, readyAt s, stoppedAt s, uptime, ttr, usable, trigger, price, cost]. */
type Row = [
  string,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  string | null,
  number | null,
  number | null,
];
function row(run: PodRun): Row {
  const s = (iso: string | null): number | null => (iso === null ? null : (Date.parse(iso) - T0) / 1000);
  return [
    run.podId,
    s(run.startedAt),
    s(run.readyAt),
    s(run.stoppedAt),
    run.uptimeSeconds,
    run.timeToReadySeconds,
    run.usableSeconds,
    run.stopTrigger,
    run.pricePerHour,
    run.estimatedCostUsd,
  ];
}

/** The input is given oldest first here for reading; the records arrive newest first. */
function records(actions: RunAction[], readyEdges: RunReadyEdge[] = []): PodRunRecords {
  return { actions: [...actions].reverse(), ready: [...readyEdges].reverse(), wakes: [] };
}

describe('podRuns', () => {
  it.each<[string, PodRunRecords, Row[]]>([
    [
      'create, ready, idle stop: one run with every figure',
      records([create(0, 'p1'), act(3600, 'Stop', 'p1')], [ready(600, 'p1')]),
      [['p1', 0, 600, 3600, 3600, 600, 3000, 'idle', 0.36, 0.36]],
    ],
    [
      'a run that never became ready: no time to ready, no usable time',
      records([create(0, 'p1'), act(300, 'Stop', 'p1', { trigger: 'boot-grace' })]),
      [['p1', 0, null, 300, 300, null, 0, 'boot-grace', 0.36, 0.03]],
    ],
    [
      'still running: counted to now, no stop, no trigger',
      records([create(1800, 'p1')], [ready(2400, 'p1')]),
      [['p1', 1800, 2400, null, 1800, 600, 1200, null, 0.36, 0.18]],
    ],
    [
      'a stop without a recorded start: the start, uptime and cost are unknown',
      records([act(60, 'Stop', 'p1', { pricePerHour: 0.5 })]),
      [['p1', null, null, 60, null, null, null, 'idle', 0.5, null]],
    ],
    [
      'two runs of one pod, newest first, each with its own ready edge',
      records(
        [
          act(0, 'Start', 'p1'),
          act(600, 'Stop', 'p1', { pricePerHour: 1 }),
          act(1200, 'Start', 'p1'),
          act(1500, 'Stop', 'p1', { trigger: 'manual', pricePerHour: 1 }),
        ],
        [ready(100, 'p1'), ready(1300, 'p1')],
      ),
      [
        ['p1', 1200, 1300, 1500, 300, 100, 200, 'manual', 1, 0.083333],
        ['p1', 0, 100, 600, 600, 100, 500, 'idle', 1, 0.166667],
      ],
    ],
    [
      'a pod terminated by the orphan sweep',
      records([create(0, 'p9'), act(900, 'Terminate', 'p9', { trigger: 'orphan' })]),
      [['p9', 0, null, 900, 900, null, 0, 'orphan', 0.36, 0.09]],
    ],
    [
      'a refused stop does not end the run; a repeated stop after the accepted one is the same run',
      records([
        create(0, 'p1'),
        act(60, 'Stop', 'p1', { ok: false, trigger: 'runtime-cap' }),
        act(120, 'Stop', 'p1', { trigger: 'runtime-cap' }),
        act(180, 'Stop', 'p1', { trigger: 'runtime-cap' }),
        act(240, 'Terminate', 'p1', { trigger: 'wake' }),
      ]),
      [['p1', 0, null, 120, 120, null, 0, 'runtime-cap', 0.36, 0.012]],
    ],
    [
      'a second start without a recorded stop: the first run ended unseen (end unknown)',
      records([act(0, 'Start', 'p1'), act(600, 'Start', 'p1')], [ready(700, 'p1')]),
      [
        ['p1', 600, 700, null, 3000, 100, 2900, null, null, null],
        ['p1', 0, null, null, null, null, null, null, null, null],
      ],
    ],
    [
      'two pods side by side (a replacement and the stale pod it retired)',
      records(
        [create(0, 'old'), create(100, 'new', 0.5), act(400, 'Terminate', 'old', { trigger: 'wake' })],
        [ready(50, 'old'), ready(300, 'new')],
      ),
      [
        ['new', 100, 300, null, 3500, 200, 3300, null, 0.5, 0.486111],
        ['old', 0, 50, 400, 400, 50, 350, 'wake', 0.36, 0.04],
      ],
    ],
    [
      'refused starts, creates without a pod id and keep-alives are not runs',
      records([
        act(0, 'Start', 'p1', { ok: false }),
        act(10, 'Create', null),
        act(20, 'KeepAlive', null, { trigger: 'manual' }),
      ]),
      [],
    ],
    [
      'a ready edge before the start or of another pod is not this run’s',
      records([create(100, 'p1'), act(200, 'Stop', 'p1')], [ready(50, 'p1'), ready(150, 'p2')]),
      [['p1', 100, null, 200, 100, null, 0, 'idle', 0.36, 0.01]],
    ],
  ])('%s', (_rule, input, expected) => {
    expect(podRuns(input, NOW, 20).map(row)).toEqual(expected);
  });

  it.each<[string, PodRunRecords, [string | null, number | null]]>([
    [
      'the ready edge’s listing when the start carried none',
      records([act(0, 'Start', 'p1'), act(3600, 'Stop', 'p1', { pricePerHour: 2 })], [ready(60, 'p1', 0.44)]),
      ['NVIDIA L4', 0.44],
    ],
    [
      'the stop’s listing next',
      records([act(0, 'Start', 'p1'), act(3600, 'Stop', 'p1', { gpuId: 'NVIDIA A40', pricePerHour: 2 })]),
      ['NVIDIA A40', 2],
    ],
    [
      'a wake that placed the pod last',
      {
        ...records([act(0, 'Start', 'p1')]),
        wakes: [
          { podId: 'p2', gpuId: 'X', pricePerHour: 9 },
          { podId: 'p1', gpuId: 'NVIDIA L40S', pricePerHour: 0.86 },
        ],
      },
      ['NVIDIA L40S', 0.86],
    ],
  ])('GPU and price: %s', (_rule, input, [gpuId, price]) => {
    const [run] = podRuns(input, NOW, 20);
    expect([run.gpuId, run.pricePerHour]).toEqual([gpuId, price]);
  });

  it('limit keeps the newest runs', () => {
    const actions = [0, 1, 2, 3].flatMap((i) => [
      act(i * 100, 'Start', 'p1'),
      act(i * 100 + 50, 'Stop', 'p1'),
    ]);
    expect(podRuns(records(actions), NOW, 2).map((run) => run.startedAt)).toEqual([at(300), at(200)]);
  });

  it('usable time never exceeds uptime', () => {
    const [run] = podRuns(records([create(0, 'p1'), act(90, 'Stop', 'p1')], [ready(30, 'p1')]), NOW, 20);
    expect(run.usableSeconds).toBeLessThanOrEqual(run.uptimeSeconds!);
    expect(run.usableSeconds! + run.timeToReadySeconds!).toBe(run.uptimeSeconds);
  });
});
