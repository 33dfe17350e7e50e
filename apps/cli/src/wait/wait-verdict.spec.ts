import { readPodStatus, type PodStatus } from '../gateway/pod-status';
import { lastWake, runningBody, statusBody } from '../testing/status-bodies';
import { afterUnreadable, initialWaitState, type WaitState } from './wait-state';
import { judgeRead, MISSES_BEFORE_ENDING } from './wait-verdict';

function read(body: Record<string, unknown>): PodStatus {
  const status = readPodStatus(body);
  if (status === null) throw new Error('test body unreadable');
  return status;
}

const created = initialWaitState({ outcome: 'Created', attemptId: 'a1', podId: 'pod1' });
const waiting = initialWaitState({ outcome: 'Waiting', attemptId: 'a1', podId: null });
const already = initialWaitState({ outcome: 'AlreadyRunning', attemptId: 'a1', podId: 'pod1' });

describe(initialWaitState.name, () => {
  it.each([
    ['Waiting', 'in-flight', false],
    ['AlreadyRunning', 'already-running', true],
    ['Started', 'succeeded', true],
    ['Created', 'succeeded', true],
  ] as const)('a %s answer starts at %s (pod up: %p)', (outcome, stage, podWasUp) => {
    expect(initialWaitState({ outcome, attemptId: 'a1', podId: null })).toMatchObject({ stage, podWasUp });
  });
});

describe(judgeRead.name, () => {
  describe('ready only when the model answers on the wake’s pod', () => {
    it.each([
      ['RUNNING, model loading', created, runningBody(null), 'waiting'],
      ['readySince set', created, runningBody(90_000), 'ready'],
      [
        'readySince set but not RUNNING with a GPU',
        created,
        runningBody(90_000, { isRunning: false }),
        'waiting',
      ],
      ['readySince of another pod', created, runningBody(90_000, { podId: 'pod2' }), 'waiting'],
      ['readySince from before this wake was requested', created, runningBody(-60_000), 'waiting'],
      ['an already-running pod ready from before the request', already, runningBody(-60_000), 'ready'],
      [
        'a 202 wake that found the pod already running',
        waiting,
        runningBody(-60_000, { lastWake: lastWake({ wakeOutcome: 'AlreadyRunning' }) }),
        'ready',
      ],
      [
        'a wake still in flight, even with a ready pod listed',
        waiting,
        runningBody(90_000, { lastWake: null }),
        'waiting',
      ],
      ['a 202 wake that has since succeeded', waiting, runningBody(90_000), 'ready'],
      [
        'a wake that stopped polling, its pod ready later',
        waiting,
        runningBody(200_000, { lastWake: lastWake({ outcome: 'TimedOut', wakeOutcome: 'Waiting' }) }),
        'ready',
      ],
      [
        'a 202 wake whose record is another attempt',
        waiting,
        runningBody(90_000, { lastWake: lastWake({ attemptId: 'a0' }) }),
        'waiting',
      ],
    ])('%s: %s', (_what, state, body, kind) => {
      expect(judgeRead(state, read(body)).kind).toBe(kind);
    });

    it('learns the pod and the request time from the wake’s own record', () => {
      const verdict = judgeRead(waiting, read(runningBody(null)));
      expect(verdict.state).toMatchObject({ stage: 'succeeded', podId: 'pod1', podWasUp: true });
      expect(verdict.state.requestedAt).not.toBeNull();
    });
  });

  describe('a Failed or Refused wake ends the wait at once', () => {
    it.each([
      ['Failed', 'failed', 'wake-failed'],
      ['Refused', 'refused', 'wake-refused'],
    ])('%s → %s', (outcome, code, reason) => {
      const body = statusBody({
        lastWake: lastWake({ outcome, wakeOutcome: 'Failed', reason: 'no GPU', podId: null }),
      });
      expect(judgeRead(waiting, read(body))).toMatchObject({
        kind: 'ended',
        code,
        reason,
        message: expect.stringContaining('no GPU'),
      });
    });

    it('another attempt’s failure does not end this wait', () => {
      const body = statusBody({ lastWake: lastWake({ attemptId: 'a0', outcome: 'Failed' }) });
      expect(judgeRead(waiting, read(body)).kind).toBe('waiting');
    });
  });

  describe('a pod that stopped or vanished ends the wait after two conclusive reads in a row', () => {
    function twice(state: WaitState, body: Record<string, unknown>) {
      const first = judgeRead(state, read(body));
      return { first, second: judgeRead(first.state, read(body)) };
    }

    it.each([
      ['stopped (EXITED)', runningBody(null, { status: 'EXITED', isRunning: false }), 'pod-stopped'],
      ['terminated', runningBody(null, { status: 'TERMINATED', isRunning: false }), 'pod-stopped'],
      ['gone: no pod on the volume', statusBody({ lookup: 'NOT_FOUND', lastWake: lastWake() }), 'pod-gone'],
      ['gone: another pod shown', runningBody(null, { podId: 'pod2' }), 'pod-gone'],
    ])('%s', (_what, body, reason) => {
      const { first, second } = twice(created, body);
      expect(first.kind).toBe('waiting');
      expect(first.state.misses).toBe(1);
      expect(second).toMatchObject({
        kind: 'ended',
        code: 'failed',
        reason,
        message: expect.stringContaining('pod1'),
      });
      expect(MISSES_BEFORE_ENDING).toBe(2);
    });

    it.each([
      [
        'the lookup was unreadable (a blip)',
        statusBody({ status: 'UNKNOWN', lookup: 'UNREADABLE', lastWake: lastWake() }),
      ],
      [
        'the pod is in ERROR (still billing, not stopped)',
        runningBody(null, { status: 'ERROR', isRunning: false }),
      ],
      ['the pod is up', runningBody(null)],
    ])('a read where %s resets the run', (_what, body) => {
      const missed = judgeRead(created, read(runningBody(null, { status: 'EXITED', isRunning: false })));
      const reset = judgeRead(missed.state, read(body));
      expect(reset).toMatchObject({ kind: 'waiting', state: { misses: 0 } });
    });

    it('an unreadable answer between two misses resets the run', () => {
      const stopped = read(runningBody(null, { status: 'EXITED', isRunning: false }));
      const missed = judgeRead(created, stopped);
      expect(judgeRead(afterUnreadable(missed.state), stopped).kind).toBe('waiting');
    });

    it('a pod never seen up (a wake that stopped polling, pod still EXITED) is not "stopped"', () => {
      const timedOut = lastWake({ outcome: 'TimedOut', wakeOutcome: 'Waiting', podId: 'pod1' });
      const body = runningBody(null, { status: 'EXITED', isRunning: false, lastWake: timedOut });
      const { second } = twice(waiting, body);
      expect(second.kind).toBe('waiting');
    });

    it('once that pod was seen up, its stop ends the wait', () => {
      const timedOut = lastWake({ outcome: 'TimedOut', wakeOutcome: 'Waiting', podId: 'pod1' });
      const up = judgeRead(
        waiting,
        read(runningBody(null, { status: 'STARTING', isRunning: false, lastWake: timedOut })),
      );
      expect(up.state.podWasUp).toBe(true);
      const { second } = twice(
        up.state,
        runningBody(null, { status: 'EXITED', isRunning: false, lastWake: timedOut }),
      );
      expect(second).toMatchObject({ kind: 'ended', reason: 'pod-stopped' });
    });

    it('before the wake names its pod, nothing counts as a miss', () => {
      const { second } = twice(waiting, statusBody({ lookup: 'NOT_FOUND' }));
      expect(second).toMatchObject({ kind: 'waiting', state: { misses: 0 } });
    });
  });
});
