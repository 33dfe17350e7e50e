import { isStopIntentDue, isStopPathIntent } from './stop-intent-due';

const AT = '2026-01-01T00:00:00.000Z';
const T = Date.parse(AT);
const TIMEOUT = 10_000;

describe('isStopIntentDue', () => {
  it.each<[string, string, string, number, boolean, string | undefined]>([
    ['a Stop older than the client timeout', 'Stop', AT, T + TIMEOUT + 1, true, undefined],
    [
      'a Stop exactly at the client timeout: its caller may still be answered',
      'Stop',
      AT,
      T + TIMEOUT,
      false,
      undefined,
    ],
    ['a Stop just written', 'Stop', AT, T + 1, false, undefined],
    ['a Stop dated in the future (clock skew)', 'Stop', AT, T - 5_000, false, undefined],
    ['a Stop with an unreadable time', 'Stop', 'not a date', T, true, undefined],
    ['a Start, however old: the waker reconciles it', 'Start', AT, T + 10 * TIMEOUT, false, undefined],
    ['a Create, however old', 'Create', AT, T + 10 * TIMEOUT, false, undefined],
    [
      'a Terminate, however old: the waker reconciles its own',
      'Terminate',
      AT,
      T + 10 * TIMEOUT,
      false,
      undefined,
    ],
    [
      "the ERROR guard's Terminate older than the client timeout",
      'Terminate',
      AT,
      T + TIMEOUT + 1,
      true,
      'error',
    ],
    ["the ERROR guard's Terminate just written", 'Terminate', AT, T + 1, false, 'error'],
    ['a Start carrying a trigger is still not the stop path', 'Start', AT, T + 10 * TIMEOUT, false, 'error'],
  ])('%s', (_name, action, at, now, due, trigger) => {
    expect(isStopIntentDue({ action, at, ...(trigger === undefined ? {} : { trigger }) }, now, TIMEOUT)).toBe(
      due,
    );
  });
});

describe('isStopPathIntent', () => {
  it.each<[string, string | undefined, boolean]>([
    ['Stop', 'idle', true],
    ['Stop', undefined, true],
    ['Terminate', 'error', true],
    ['Terminate', undefined, false],
    ['Start', undefined, false],
    ['Create', undefined, false],
    ['Create', 'manual', false],
  ])('%s with trigger %s: %s', (action, trigger, expected) => {
    expect(isStopPathIntent({ action, trigger })).toBe(expected);
  });
});
