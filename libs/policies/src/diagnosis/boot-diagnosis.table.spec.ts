import {
  diagnoseBoot,
  RESTART_LOOP_MIN_SPAN_MS,
  RESTART_LOOP_MIN_STARTS,
  shouldDiagnose,
  type BootDiagnosis,
  type BootLogLine,
  type BootSignals,
  type DiagnoseWhen,
} from './boot-diagnosis';

const T0 = Date.parse('2026-12-01T10:00:00Z');
const sys = (line: string, ms: number | null = 0): BootLogLine => ({
  source: 'system',
  line,
  ts: ms === null ? null : T0 + ms,
});
const app = (line: string, ms: number | null = 0): BootLogLine => ({
  source: 'container',
  line,
  ts: ms === null ? null : T0 + ms,
});
const MIN = 60_000;

function read(lines: BootLogLine[], status: string | null = 'RUNNING', hasRuntime = true): BootSignals {
  return { logs: { kind: 'read', lines }, status, hasRuntime };
}

const NO_SIGNAL = 'no signal decides it';
const NOT_YET_LOOP = 'repeated starts not (yet) confirmed as a loop';
const APP_FAILED = 'the application failed after its container started';
const COLD_PULL = 'the image is still being pulled (no restarts, no application output yet)';
const lag = (status: string): string =>
  `the container is making progress while the control plane still reports ${status} without a runtime`;

/** Three starts at the given offsets, each followed by the given failure line. */
function starts3(
  at: [number | null, number | null, number | null],
  failures: [string, string, string],
): BootLogLine[] {
  return at.flatMap((ms, i) => [
    sys(`start container c: attempt ${i + 1}`, ms),
    app(failures[i], (ms ?? 0) + 5),
  ]);
}
const SAME: [string, string, string] = ['fatal: cache dir', 'fatal: cache dir', 'fatal: cache dir'];

describe('boot diagnosis: the constants', () => {
  it('a loop needs three starts over at least three minutes', () => {
    expect([RESTART_LOOP_MIN_STARTS, RESTART_LOOP_MIN_SPAN_MS]).toEqual([3, 180_000]);
  });
});

describe('boot diagnosis: which system lines are container starts', () => {
  // Three matching system lines and nothing else: "repeated starts" if they are starts, else no signal.
  it.each<[string, string]>([
    ['start container abc', NOT_YET_LOOP],
    ['Starting container abc', NOT_YET_LOOP],
    ['STARTING CONTAINER abc', NOT_YET_LOOP],
    ['container start abc', NOT_YET_LOOP],
    ['Container started abc', NOT_YET_LOOP],
    // Word boundaries: part of another word is not a start.
    ['restart container abc', NO_SIGNAL],
    ['start containerd abc', NO_SIGNAL],
    ['subcontainer start abc', NO_SIGNAL],
    ['container startup abc', NO_SIGNAL],
    ['container starts abc', NO_SIGNAL],
    ['started container abc', NO_SIGNAL],
  ])('%j three times: %s', (line, summary) => {
    const lines = [sys(line, 0), sys(line, MIN), sys(line, 2 * MIN)];
    expect(diagnoseBoot(read(lines))).toEqual({ kind: 'unknown', evidence: [line, line, line], summary });
  });

  it('a start line from the container is not a container start', () => {
    const lines = [app('start container a'), app('start container a'), app('start container a')];
    expect(diagnoseBoot(read(lines)).summary).toBe(NO_SIGNAL);
  });
});

describe('boot diagnosis: which container lines are failures', () => {
  // One container line with a runtime up: an application failure if it fails, else no signal.
  it.each<[string, boolean]>([
    ['Error: boom', true],
    ['an ERROR occurred', true],
    ['unhandled exception', true],
    ['Traceback (most recent call last):', true],
    ['fatal: no config', true],
    ['panic: runtime', true],
    ['process killed', true],
    ['Segmentation fault (core dumped)', true],
    ['open /w: Permission denied', true],
    ['CUDA out of memory', true],
    ['no such file or directory', true],
    // A Python exception line: a capitalised name ending in Error or Exception, then ":" or the line's end.
    ['ValueError: bad config', true],
    ['OSError: [Errno 28] No space left on device', true],
    ["KeyError: 'model'", true],
    ['torch.cuda.OutOfMemoryError', true],
    ['grpc._channel._InactiveRpcError:', true],
    ['huggingface_hub.utils.HfHubHTTPException: 401', true],
    ['asyncio.exceptions.CancelledError  ', true],
    ['INFO loading weights', false],
    // Whole words only: a plural, part of an identifier or a name not at the line's end is not one.
    ['0 errors so far', false],
    ['errors=0', false],
    ['no_error_handler registered', false],
    ['on_error: retry', false],
    ['INFO ErrorHandler: installed', false],
    ['INFO retrying after ConnectionError in 2 s', false],
    ['raise ValueError(msg)', false],
    ['myValueError: lower-case start', false],
    ['VALUEERROR: not the Python spelling', false],
    ['UserWarning: deprecated', false],
    ['panicked? no', false],
    ['outofmemory', false],
  ])('%j fails: %s', (line, fails) => {
    const expected: BootDiagnosis = fails
      ? { kind: 'application-failure', evidence: [line], summary: APP_FAILED }
      : { kind: 'unknown', evidence: [line], summary: NO_SIGNAL };
    expect(diagnoseBoot(read([app(line)]))).toEqual(expected);
  });

  it('a failure word in a system line is not an application failure', () => {
    expect(diagnoseBoot(read([sys('fatal error pulling nothing')]))).toEqual({
      kind: 'cold-pull',
      evidence: ['fatal error pulling nothing'],
      summary: COLD_PULL,
    });
  });
});

describe('boot diagnosis: which system lines are pull progress', () => {
  // One system line, nothing else: a cold pull if it is pull progress, else no signal.
  it.each<[string, boolean]>([
    ['pull image x', true],
    ['Pulling image x', true],
    ['download x', true],
    ['Downloading x', true],
    ['downloaded x', true],
    ['extract x', true],
    ['Extracting x', true],
    ['LAYER 3/12', true],
    ['Pulled image x', false],
    ['repull x', false],
    ['downloads x', false],
    ['extracted x', false],
    ['layers x', false],
    ['container exited with code 1', false],
  ])('%j is a pull: %s', (line, pull) => {
    const expected: BootDiagnosis = pull
      ? { kind: 'cold-pull', evidence: [line], summary: COLD_PULL }
      : { kind: 'unknown', evidence: [line], summary: NO_SIGNAL };
    expect(diagnoseBoot(read([sys(line)]))).toEqual(expected);
  });

  it('a pull line from the container is not pull progress', () => {
    expect(diagnoseBoot(read([app('Downloading weights')]))).toEqual({
      kind: 'unknown',
      evidence: ['Downloading weights'],
      summary: NO_SIGNAL,
    });
  });
});

describe('boot diagnosis: the restart loop', () => {
  const loop = (summary: string, first: string, last: string, repeated: string): BootDiagnosis => ({
    kind: 'restart-loop',
    evidence: [first, last, repeated],
    summary,
  });

  it.each<[string, BootLogLine[], BootDiagnosis]>([
    [
      'three starts exactly over the minimum span',
      starts3([0, MIN, RESTART_LOOP_MIN_SPAN_MS], SAME),
      loop(
        'restart loop: 3 container starts over 3 min, each failing with the same early error',
        'start container c: attempt 1',
        'start container c: attempt 3',
        'fatal: cache dir',
      ),
    ],
    [
      'minutes are rounded down',
      starts3([0, MIN, 4 * MIN - 1], SAME),
      loop(
        'restart loop: 3 container starts over 3 min, each failing with the same early error',
        'start container c: attempt 1',
        'start container c: attempt 3',
        'fatal: cache dir',
      ),
    ],
    [
      'the span is from the earliest to the latest start, in any order',
      starts3([5 * MIN, 0, 2 * MIN], SAME),
      loop(
        'restart loop: 3 container starts over 5 min, each failing with the same early error',
        'start container c: attempt 1',
        'start container c: attempt 3',
        'fatal: cache dir',
      ),
    ],
    [
      'a start without a time does not count in the span; two timed ones are enough',
      starts3([0, null, 3 * MIN], SAME),
      loop(
        'restart loop: 3 container starts over 3 min, each failing with the same early error',
        'start container c: attempt 1',
        'start container c: attempt 3',
        'fatal: cache dir',
      ),
    ],
    [
      'the latest line of an error seen exactly twice is the evidence, not a later one-off error',
      starts3([0, 2 * MIN, 4 * MIN], ['fatal: A at 0x1f', 'fatal: A at 0x2e', 'fatal: B']),
      loop(
        'restart loop: 3 container starts over 4 min, each failing with the same early error',
        'start container c: attempt 1',
        'start container c: attempt 3',
        'fatal: A at 0x2e',
      ),
    ],
    [
      'a Python exception line alone is the repeated failure',
      starts3([0, 2 * MIN, 4 * MIN], ['KeyError: 7', 'KeyError: 8', 'KeyError: 9']),
      loop(
        'restart loop: 3 container starts over 4 min, each failing with the same early error',
        'start container c: attempt 1',
        'start container c: attempt 3',
        'KeyError: 9',
      ),
    ],
  ])('%s', (_rule, lines, expected) => {
    expect(diagnoseBoot(read(lines))).toEqual(expected);
  });

  // Not a loop: with a runtime up and failures, three starts fall through to "not (yet) confirmed".
  it.each<[string, BootLogLine[]]>([
    ['a span one millisecond short', starts3([0, MIN, RESTART_LOOP_MIN_SPAN_MS - 1], SAME)],
    ['only one start has a time', starts3([0, null, null], SAME)],
    ['no start has a time', starts3([null, null, null], SAME)],
    ['an untimed start is not taken as time zero', starts3([10 * MIN, null, 11 * MIN], SAME)],
    ['every error differs', starts3([0, 2 * MIN, 4 * MIN], ['fatal: A', 'fatal: B', 'fatal: C'])],
  ])('not a loop: %s', (_rule, lines) => {
    expect(diagnoseBoot(read(lines))).toEqual({
      kind: 'unknown',
      evidence: lines.slice(-3).map((l) => l.line),
      summary: NOT_YET_LOOP,
    });
  });

  it('two starts with the same error over minutes are an application failure, not a loop', () => {
    const lines = [
      sys('start container c', 0),
      app('fatal: x', 1),
      sys('start container c', 10 * MIN),
      app('fatal: x', 10 * MIN + 1),
    ];
    expect(diagnoseBoot(read(lines))).toEqual({
      kind: 'application-failure',
      evidence: ['fatal: x', 'fatal: x'],
      summary: APP_FAILED,
    });
  });

  it('three starts with failures but no loop are not lag either, even without a runtime', () => {
    const lines = starts3([0, MIN, 2 * MIN], SAME);
    expect(diagnoseBoot(read(lines, 'STARTING', false))).toEqual({
      kind: 'unknown',
      evidence: lines.slice(-3).map((l) => l.line),
      summary: NOT_YET_LOOP,
    });
  });
});

describe('boot diagnosis: the same error across restarts', () => {
  // Errors are the same when they differ only by numbers, hex addresses, case and surrounding space.
  it.each<[string, [string, string, string], boolean]>([
    ['numbers of any length', ['fatal: pid 7', 'fatal: pid 12345', 'fatal: pid 8'], true],
    ['hex addresses with different letters', ['fatal at 0xa0f9 in x', 'fatal at 0xf9a0 in x', 'x'], true],
    ['upper-case hex', ['fatal at 0xDEADBEEF', 'fatal at 0xcafebabe', 'x'], true],
    ['an address and a number alike', ['fatal at 0xff', 'fatal at 255', 'x'], true],
    ['case', ['FATAL: Cache', 'fatal: cache', 'x'], true],
    ['surrounding space', ['  fatal: cache ', 'fatal: cache', 'x'], true],
    [
      'the words after an address still count',
      ['fatal at 0xa0f9 in libA', 'fatal at 0xa0f9 in libB', 'x'],
      false,
    ],
    ['a number is not nothing', ['fatal: code 1', 'fatal: code', 'x'], false],
    ['letters are not digits', ['fatal: pid 7', 'fatal: pid x', 'x'], false],
  ])('%s: same error %s', (_rule, failures, same) => {
    const diagnosis = diagnoseBoot(read(starts3([0, 2 * MIN, 4 * MIN], failures)));
    expect(diagnosis.kind).toBe(same ? 'restart-loop' : 'unknown');
  });
});

describe('boot diagnosis: application failure, lag, cold pull and unknown', () => {
  // Four lines (three for pulls) so that slice(-n) and slice(n) pick different lines.
  const linesN = (make: (line: string, ms: number) => BootLogLine, word: string, n = 4): BootLogLine[] =>
    Array.from({ length: n }, (_, i) => make(`${word} ${i + 1}`, i + 1));

  it.each<[string, BootSignals, BootDiagnosis]>([
    [
      'an application failure names its last three failures',
      read([sys('start container c'), ...linesN(app, 'fatal'), app('INFO still here', 9)]),
      { kind: 'application-failure', evidence: ['fatal 2', 'fatal 3', 'fatal 4'], summary: APP_FAILED },
    ],
    [
      'a failure with no start at all is an application failure',
      read([app('fatal: x')], 'STARTING', false),
      { kind: 'application-failure', evidence: ['fatal: x'], summary: APP_FAILED },
    ],
    [
      'lag names the last three container lines and the reported status',
      read(linesN(app, 'INFO step'), 'STARTING', false),
      {
        kind: 'control-plane-lag',
        evidence: ['INFO step 2', 'INFO step 3', 'INFO step 4'],
        summary: lag('STARTING'),
      },
    ],
    [
      'lag without a status says so',
      read([app('INFO step')], null, false),
      { kind: 'control-plane-lag', evidence: ['INFO step'], summary: lag('no status') },
    ],
    [
      'a status other than RUNNING is lag even with a runtime',
      read([app('INFO step')], 'STARTING', true),
      { kind: 'control-plane-lag', evidence: ['INFO step'], summary: lag('STARTING') },
    ],
    [
      'RUNNING without a runtime is lag, the status quoted as reported',
      read([app('INFO step')], 'running', false),
      { kind: 'control-plane-lag', evidence: ['INFO step'], summary: lag('running') },
    ],
    [
      'running in any case with a runtime is up: not lag',
      read([app('INFO step')], 'running', true),
      { kind: 'unknown', evidence: ['INFO step'], summary: NO_SIGNAL },
    ],
    [
      'no lines and no status: unknown, not lag or a cold pull',
      read([], null, false),
      { kind: 'unknown', evidence: [], summary: NO_SIGNAL },
    ],
    ['no lines with a runtime up: unknown', read([]), { kind: 'unknown', evidence: [], summary: NO_SIGNAL }],
    [
      'a cold pull names its last two pull lines',
      read([...linesN(sys, 'Pulling', 3), sys('container exited', 9)]),
      { kind: 'cold-pull', evidence: ['Pulling 2', 'Pulling 3'], summary: COLD_PULL },
    ],
    [
      'a pull with one start is still a cold pull',
      read([sys('Pulling image'), sys('start container c', 1)]),
      { kind: 'cold-pull', evidence: ['Pulling image'], summary: COLD_PULL },
    ],
    [
      'a pull with two starts is not',
      read([sys('Pulling image'), sys('start container c', 1), sys('start container c', 2)]),
      {
        kind: 'unknown',
        evidence: ['Pulling image', 'start container c', 'start container c'],
        summary: NO_SIGNAL,
      },
    ],
    [
      'a pull with application output and a runtime up is not',
      read([sys('Pulling image'), app('INFO serving', 1)]),
      { kind: 'unknown', evidence: ['Pulling image', 'INFO serving'], summary: NO_SIGNAL },
    ],
    [
      'unknown names the last three lines of any source',
      read([sys('a', 1), app('b', 2), sys('c', 3), app('d', 4)]),
      { kind: 'unknown', evidence: ['b', 'c', 'd'], summary: NO_SIGNAL },
    ],
    [
      'unreadable logs: unknown, naming why',
      { logs: { kind: 'unreadable', reason: 'http 500' }, status: 'RUNNING', hasRuntime: true },
      { kind: 'unknown', evidence: ['logs unreadable: http 500'], summary: 'the pod logs could not be read' },
    ],
  ])('%s', (_rule, signals, expected) => {
    expect(diagnoseBoot(signals)).toEqual(expected);
  });

  it('each evidence line is cut to 300 characters; shorter ones stay whole', () => {
    const lines = [app('x'.repeat(301)), app('y'.repeat(300)), app('z')];
    expect(diagnoseBoot(read(lines, 'STARTING', false)).evidence).toEqual([
      'x'.repeat(300),
      'y'.repeat(300),
      'z',
    ]);
  });
});

describe('boot diagnosis: when to diagnose', () => {
  const when = (overrides: Partial<DiagnoseWhen>): DiagnoseWhen => ({
    booting: false,
    bootingTicks: 0,
    afterTicks: 3,
    bootGraceDue: false,
    inError: false,
    ...overrides,
  });

  it.each<[string, boolean, Partial<DiagnoseWhen>]>([
    ['nothing due', false, {}],
    ['boot grace due alone', true, { bootGraceDue: true }],
    ['ERROR alone', true, { inError: true }],
    ['booting one tick short', false, { booting: true, bootingTicks: 2 }],
    ['booting exactly the ticks', true, { booting: true, bootingTicks: 3 }],
    ['booting beyond the ticks', true, { booting: true, bootingTicks: 4 }],
    ['ticks counted but no longer booting', false, { booting: false, bootingTicks: 4 }],
    ['one tick suffices when set to 1', true, { afterTicks: 1, booting: true, bootingTicks: 1 }],
    [
      '0 disables it, even when due',
      false,
      { afterTicks: 0, booting: true, bootingTicks: 5, bootGraceDue: true, inError: true },
    ],
    ['a negative setting disables it too', false, { afterTicks: -1, bootGraceDue: true, inError: true }],
  ])('%s: %s', (_rule, expected, overrides) => {
    expect(shouldDiagnose(when(overrides))).toBe(expected);
  });
});
