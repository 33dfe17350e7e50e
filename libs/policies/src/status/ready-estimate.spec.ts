import {
  bootUnderWay,
  expectedReadyAt,
  medianReadyAfterMs,
  readySampleOf,
  type BootFacts,
  type ReadyAttempt,
  type ReadySample,
} from './ready-estimate';

const MIN = 60_000;

function samples(gpuId: string | null, ...minutes: number[]): ReadySample[] {
  return minutes.map((m, i) => ({ attemptId: `${gpuId}-${i}`, gpuId, readyAfterMs: m * MIN }));
}

describe('medianReadyAfterMs', () => {
  const rows: [string, ReadySample[], string | null, number | null][] = [
    ['no history', [], 'L40S', null],
    ['one sample', samples('L40S', 7), 'L40S', 7 * MIN],
    ['odd count: the middle one', samples('A100', 9, 3, 5), null, 5 * MIN],
    ['even count: the mean of the middle two', samples('A100', 4, 8, 6, 2), null, 5 * MIN],
    [
      'four on this GPU are not enough: every GPU counts',
      [...samples('L40S', 1, 1, 1, 1), ...samples('A100', 10, 10, 10, 10, 10)],
      'L40S',
      10 * MIN,
    ],
    [
      'five on this GPU: only they count',
      [...samples('L40S', 1, 2, 3, 4, 5), ...samples('A100', 10, 10, 10, 10, 10, 10)],
      'L40S',
      3 * MIN,
    ],
    [
      'GPU ids match case-insensitively',
      [...samples('NVIDIA L40S', 1, 2, 3, 4, 5), ...samples('A100', 10, 10, 10, 10, 10, 10)],
      'nvidia l40s',
      3 * MIN,
    ],
    [
      'an unknown GPU uses every sample',
      [...samples('L40S', 1, 2, 3, 4, 5), ...samples('A100', 10, 10, 10, 10)],
      null,
      5 * MIN,
    ],
    [
      'samples of no known GPU are never this GPU’s',
      [...samples(null, 1, 1, 1, 1, 1), ...samples('L40S', 9, 9, 9, 9, 9)],
      'L40S',
      9 * MIN,
    ],
  ];

  it.each(rows)('%s', (_name, history, gpuId, expected) => {
    expect(medianReadyAfterMs(history, gpuId)).toBe(expected);
  });
});

describe('bootUnderWay', () => {
  const T = 1_000_000;
  const idle: BootFacts = {
    wakeRequestedAt: null,
    lastWake: null,
    podId: null,
    status: null,
    readySince: null,
  };
  const started = { requestedAt: T, wakeOutcome: 'Started', podId: 'p1', gpuId: 'L40S' };

  const rows: [string, BootFacts, ReturnType<typeof bootUnderWay>][] = [
    ['nothing known', idle, null],
    [
      'a wake in flight starts at its request',
      { ...idle, wakeRequestedAt: T + 5 },
      { startedAt: T + 5, gpuId: null },
    ],
    [
      'a wake in flight guesses the last wake GPU',
      { ...idle, wakeRequestedAt: T + 5, lastWake: started },
      { startedAt: T + 5, gpuId: 'L40S' },
    ],
    [
      'a started pod still booting',
      { ...idle, lastWake: started, podId: 'p1', status: 'Starting' },
      { startedAt: T, gpuId: 'L40S' },
    ],
    [
      'a created pod running, model not ready yet',
      { ...idle, lastWake: { ...started, wakeOutcome: 'Created' }, podId: 'p1', status: 'Running' },
      { startedAt: T, gpuId: 'L40S' },
    ],
    [
      'ready: nothing booting',
      { ...idle, lastWake: started, podId: 'p1', status: 'Running', readySince: T + 9 },
      null,
    ],
    [
      'ready wins over a wake in flight (a joiner of a running pod)',
      { ...idle, wakeRequestedAt: T, readySince: T - 1 },
      null,
    ],
    [
      'a started pod still provisioning',
      { ...idle, lastWake: started, podId: 'p1', status: 'Provisioning' },
      { startedAt: T, gpuId: 'L40S' },
    ],
    [
      'a wake that named no pod, no pod read',
      { ...idle, lastWake: { ...started, podId: null }, podId: null, status: 'Starting' },
      null,
    ],
    ['stopped after the wake', { ...idle, lastWake: started, podId: 'p1', status: 'Exited' }, null],
    [
      'a pod the last wake did not bring up',
      { ...idle, lastWake: started, podId: 'p2', status: 'Starting' },
      null,
    ],
    [
      'the last wake found it already running',
      { ...idle, lastWake: { ...started, wakeOutcome: 'AlreadyRunning' }, podId: 'p1', status: 'Running' },
      null,
    ],
    [
      'the last wake failed',
      { ...idle, lastWake: { ...started, wakeOutcome: 'Failed', podId: null }, status: 'Starting' },
      null,
    ],
  ];

  it.each(rows)('%s', (_name, facts, expected) => {
    expect(bootUnderWay(facts)).toEqual(expected);
  });
});

describe('expectedReadyAt', () => {
  const boot = { startedAt: 1_000_000, gpuId: 'L40S' };

  it('is null without history', () => {
    expect(expectedReadyAt(boot, [])).toBeNull();
  });

  it('is null when nothing is booting, whatever the history', () => {
    expect(expectedReadyAt(null, samples('L40S', 5))).toBeNull();
  });

  it('is the boot start plus the median', () => {
    expect(expectedReadyAt(boot, samples('A100', 4, 6, 8))).toBe(1_000_000 + 6 * MIN);
  });
});

describe('readySampleOf', () => {
  const T = 1_000_000;
  const attempt: ReadyAttempt = {
    attemptId: 'a1',
    requestedAt: T,
    wakeOutcome: 'Created',
    podId: 'p1',
    gpuId: 'L40S',
  };
  const ready: { podId: string | null; at: number; gpuId: string | null } = {
    podId: 'p1',
    at: T + 7 * MIN,
    gpuId: null,
  };

  const rows: [string, ReadyAttempt | null, typeof ready, ReadySample | null][] = [
    ['no wake: nothing to learn', null, ready, null],
    ['a created pod ready', attempt, ready, { attemptId: 'a1', gpuId: 'L40S', readyAfterMs: 7 * MIN }],
    [
      'the listed GPU wins',
      attempt,
      { ...ready, gpuId: 'A100' },
      { attemptId: 'a1', gpuId: 'A100', readyAfterMs: 7 * MIN },
    ],
    [
      'a wake still in flight',
      { ...attempt, wakeOutcome: null, podId: null, gpuId: null },
      ready,
      { attemptId: 'a1', gpuId: null, readyAfterMs: 7 * MIN },
    ],
    [
      'a started pod',
      { ...attempt, wakeOutcome: 'Started' },
      ready,
      { attemptId: 'a1', gpuId: 'L40S', readyAfterMs: 7 * MIN },
    ],
    ['already running before the wake', { ...attempt, wakeOutcome: 'AlreadyRunning' }, ready, null],
    ['a failed wake', { ...attempt, wakeOutcome: 'Failed' }, ready, null],
    ['another pod became ready', attempt, { ...ready, podId: 'p2' }, null],
    [
      'a ready edge that names no pod',
      attempt,
      { ...ready, podId: null },
      { attemptId: 'a1', gpuId: 'L40S', readyAfterMs: 7 * MIN },
    ],
    ['ready before the request (clock or record mix-up)', attempt, { ...ready, at: T }, null],
    ['ready after three hours: not a boot to learn from', attempt, { ...ready, at: T + 180 * MIN + 1 }, null],
    [
      'exactly three hours still counts',
      attempt,
      { ...ready, at: T + 180 * MIN },
      { attemptId: 'a1', gpuId: 'L40S', readyAfterMs: 180 * MIN },
    ],
  ];

  it.each(rows)('%s', (_name, given, at, expected) => {
    expect(readySampleOf(given, at)).toEqual(expected);
  });
});
