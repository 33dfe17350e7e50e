import {
  diagnoseBoot,
  shouldDiagnose,
  stopsEarly,
  type BootDiagnosisKind,
  type BootLogLine,
  type BootSignals,
} from './boot-diagnosis';

const T0 = Date.parse('2026-12-01T10:00:00Z');
const sys = (line: string, sec = 0): BootLogLine => ({ source: 'system', line, ts: T0 + sec * 1000 });
const app = (line: string, sec = 0): BootLogLine => ({ source: 'container', line, ts: T0 + sec * 1000 });
const loop = (every: number, count: number): BootLogLine[] =>
  Array.from({ length: count }, (_, i) => [
    sys(`start container abc123: begin (attempt ${i + 1})`, i * every),
    app(`PermissionError: [Errno 13] Permission denied: '/workspace/.cache' at 0x7f${i}`, i * every + 5),
    sys('container exited with code 1', i * every + 6),
  ]).flat();

function signals(lines: BootLogLine[], status = 'RUNNING', hasRuntime = true): BootSignals {
  return { logs: { kind: 'read', lines }, status, hasRuntime };
}

describe('boot diagnosis', () => {
  it.each<[string, BootSignals, BootDiagnosisKind]>([
    [
      'pull progress, one start at most, no application output: a cold pull',
      signals(
        [sys('Pulling image vllm/vllm-openai:v0.11.0'), sys('Downloading layer 3/12 (4.1 GB)', 60)],
        'RUNNING',
        false,
      ),
      'cold-pull',
    ],
    [
      'repeated starts with the same early error over minutes: a restart loop',
      signals(loop(60, 4)),
      'restart-loop',
    ],
    [
      'the same loop seen for less than the confirmation span is not yet one',
      signals(loop(20, 4)),
      'unknown',
    ],
    [
      'repeated starts with different errors are not a loop',
      signals([
        sys('start container a: begin', 0),
        app('ValueError: bad config', 5),
        sys('start container a: begin', 120),
        app('RuntimeError: CUDA error', 125),
        sys('start container a: begin', 240),
      ]),
      'unknown',
    ],
    [
      'one start and an application error: an application failure',
      signals([
        sys('start container a: begin'),
        app('INFO Loading weights', 10),
        app('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB', 20),
      ]),
      'application-failure',
    ],
    [
      'the container makes progress while the control plane shows no runtime: control-plane lag',
      signals(
        [sys('start container a: begin'), app('INFO Loading weights took 41.2 s', 30)],
        'RUNNING',
        false,
      ),
      'control-plane-lag',
    ],
    [
      'progress while the control plane still says STARTING: control-plane lag',
      signals([app('INFO Started server process', 30)], 'STARTING', false),
      'control-plane-lag',
    ],
    ['no lines at all: unknown', signals([]), 'unknown'],
    [
      'healthy progress with a runtime is not lag',
      signals([sys('start container a: begin'), app('INFO Loading weights', 30)]),
      'unknown',
    ],
    [
      'unreadable logs: unknown',
      { logs: { kind: 'unreadable', reason: 'http 500' }, status: 'RUNNING', hasRuntime: false },
      'unknown',
    ],
  ])('%s', (_rule, input, kind) => {
    expect(diagnoseBoot(input).kind).toBe(kind);
  });

  it('a restart loop names the first and latest start and the repeated error', () => {
    const diagnosis = diagnoseBoot(signals(loop(60, 4)));
    expect(diagnosis.evidence).toEqual([
      'start container abc123: begin (attempt 1)',
      'start container abc123: begin (attempt 4)',
      "PermissionError: [Errno 13] Permission denied: '/workspace/.cache' at 0x7f3",
    ]);
    expect(diagnosis.summary).toBe(
      'restart loop: 4 container starts over 3 min, each failing with the same early error',
    );
  });

  it('evidence is bounded in lines and characters', () => {
    const long = 'x'.repeat(1000);
    const diagnosis = diagnoseBoot(signals([app(long), app(long), app(long)], 'STARTING', false));
    expect(diagnosis.evidence.every((line) => line.length <= 300)).toBe(true);
    expect(diagnosis.evidence.length).toBeLessThanOrEqual(6);
  });

  it.each<[BootDiagnosisKind, boolean, boolean]>([
    ['restart-loop', true, true],
    ['restart-loop', false, false],
    ['cold-pull', true, false],
    ['application-failure', true, false],
    ['control-plane-lag', true, false],
    ['unknown', true, false],
  ])('a %s of a pod we started=%s stops early: %s', (kind, ours, stops) => {
    expect(stopsEarly({ kind, evidence: [], summary: '' }, ours)).toBe(stops);
  });

  it.each<[string, Parameters<typeof shouldDiagnose>[0], boolean]>([
    [
      'booting for the configured ticks',
      { booting: true, bootingTicks: 3, afterTicks: 3, bootGraceDue: false, inError: false },
      true,
    ],
    [
      'booting for fewer ticks',
      { booting: true, bootingTicks: 2, afterTicks: 3, bootGraceDue: false, inError: false },
      false,
    ],
    [
      'not ready in time',
      { booting: true, bootingTicks: 1, afterTicks: 3, bootGraceDue: true, inError: false },
      true,
    ],
    [
      'a pod in ERROR',
      { booting: false, bootingTicks: 0, afterTicks: 3, bootGraceDue: false, inError: true },
      true,
    ],
    [
      'ready and healthy',
      { booting: false, bootingTicks: 9, afterTicks: 3, bootGraceDue: false, inError: false },
      false,
    ],
    [
      'diagnosis disabled',
      { booting: true, bootingTicks: 9, afterTicks: 0, bootGraceDue: true, inError: true },
      false,
    ],
  ])('diagnose when %s: %s', (_rule, when, expected) => {
    expect(shouldDiagnose(when)).toBe(expected);
  });
});
