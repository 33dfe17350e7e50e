import { lastWake, runningBody, statusBody, T0 } from '../testing/status-bodies';
import { readPodStatus } from './pod-status';

describe(readPodStatus.name, () => {
  it('reads the fields a wait decides on and keeps the whole body', () => {
    const body = runningBody(60_000, {
      wake: { attemptId: 'a2', phase: 'Polling', message: 'm', updatedAt: 'x' },
    });
    expect(readPodStatus(body)).toEqual({
      name: 'qwen',
      status: 'RUNNING',
      isRunning: true,
      podId: 'pod1',
      lookup: 'FOUND',
      readySince: T0 + 60_000,
      wake: { attemptId: 'a2', phase: 'Polling', message: 'm' },
      lastWake: {
        attemptId: 'a1',
        outcome: 'Succeeded',
        wakeOutcome: 'Created',
        reason: 'created',
        podId: 'pod1',
        requestedAt: T0,
      },
      body,
    });
  });

  it('keeps fields it does not know (spendToday, expectedReadyAt) in the body it prints', () => {
    const read = readPodStatus(statusBody({ spendToday: { usd: 1.2, estimate: true } }));
    expect(read?.body.spendToday).toEqual({ usd: 1.2, estimate: true });
  });

  it.each([
    ['not an object', 'RUNNING'],
    ['an array', []],
    ['no status', statusBody({ status: undefined })],
    ['isRunning as a string', statusBody({ isRunning: 'true' })],
    ['no lookup', statusBody({ lookup: undefined })],
    ['podId as a number', statusBody({ podId: 7 })],
    ['missing podId', statusBody({ podId: undefined })],
    ['readySince not a time', statusBody({ readySince: 'soon' })],
    ['readySince as a number', statusBody({ readySince: 1 })],
    ['a wake without attemptId', statusBody({ wake: { phase: 'x' } })],
    ['a lastWake with an unknown outcome', statusBody({ lastWake: lastWake({ outcome: 'Maybe' }) })],
    ['a lastWake with a numeric podId', statusBody({ lastWake: lastWake({ podId: 3 }) })],
  ])('%s is unreadable (null), never "no pod" or "not ready"', (_what, body) => {
    expect(readPodStatus(body)).toBeNull();
  });
});
