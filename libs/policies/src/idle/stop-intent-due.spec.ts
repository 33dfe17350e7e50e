import { isStopIntentDue } from './stop-intent-due';

const AT = '2026-01-01T00:00:00.000Z';
const T = Date.parse(AT);
const TIMEOUT = 10_000;

describe('isStopIntentDue', () => {
  it.each<[string, string, string, number, boolean]>([
    ['a Stop older than the client timeout', 'Stop', AT, T + TIMEOUT + 1, true],
    [
      'a Stop exactly at the client timeout: its caller may still be answered',
      'Stop',
      AT,
      T + TIMEOUT,
      false,
    ],
    ['a Stop just written', 'Stop', AT, T + 1, false],
    ['a Stop dated in the future (clock skew)', 'Stop', AT, T - 5_000, false],
    ['a Stop with an unreadable time', 'Stop', 'not a date', T, true],
    ['a Start, however old: the waker reconciles it', 'Start', AT, T + 10 * TIMEOUT, false],
    ['a Create, however old', 'Create', AT, T + 10 * TIMEOUT, false],
    ['a Terminate, however old', 'Terminate', AT, T + 10 * TIMEOUT, false],
  ])('%s', (_name, action, at, now, due) => {
    expect(isStopIntentDue({ action, at }, now, TIMEOUT)).toBe(due);
  });
});
