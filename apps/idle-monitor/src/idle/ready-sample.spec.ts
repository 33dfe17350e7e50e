import { NO_COMPLETION, type WakeAttemptView } from '@podwarden/platform';
import { readySampleOfWake } from './ready-sample';

const REQUESTED = '2026-12-01T10:00:00.000Z';
const READY_AT = Date.parse('2026-12-01T10:04:30.000Z');

function attempt(fields: Partial<WakeAttemptView> = {}): WakeAttemptView {
  return {
    ...NO_COMPLETION,
    attemptId: 'a-1',
    requestedAt: REQUESTED,
    requestedBy: null,
    wakeOutcome: 'Created',
    podId: 'p1',
    gpuId: 'NVIDIA A40',
    ...fields,
  };
}

const READY = { podId: 'p1', at: READY_AT, gpuId: 'NVIDIA L40S' };

describe('readySampleOfWake', () => {
  it('no wake record: no sample', () => {
    expect(readySampleOfWake(undefined, READY)).toBeNull();
  });

  it("a wake that created the pod now ready: its attempt, the ready pod's GPU, and the ms from the request to ready", () => {
    expect(readySampleOfWake(attempt(), READY)).toEqual({
      attemptId: 'a-1',
      gpuId: 'NVIDIA L40S',
      readyAfterMs: 270_000,
    });
  });

  it("the wake's GPU when the ready edge names none", () => {
    expect(readySampleOfWake(attempt(), { ...READY, gpuId: null })).toEqual({
      attemptId: 'a-1',
      gpuId: 'NVIDIA A40',
      readyAfterMs: 270_000,
    });
  });

  it.each<[string, Partial<WakeAttemptView>, boolean]>([
    ['started it', { wakeOutcome: 'Started' }, true],
    ['is still in flight', { wakeOutcome: null, podId: null }, true],
    ['found it already running', { wakeOutcome: 'AlreadyRunning' }, false],
    ['brought up another pod', { podId: 'p2' }, false],
    ['was asked for at the ready instant', { requestedAt: new Date(READY_AT).toISOString() }, false],
    ['was asked for 1 ms before ready', { requestedAt: new Date(READY_AT - 1).toISOString() }, true],
  ])('a wake that %s (sampled or not)', (_name, fields, sampled) => {
    const sample = readySampleOfWake(attempt(fields), READY);
    expect(sample === null ? null : sample.attemptId).toBe(sampled ? 'a-1' : null);
  });
});
