import { TICK_SLACK_MS, tickFreshness, type TickFreshnessInput } from './tick-freshness';

const START = 1_000_000;
const base: TickFreshnessInput = {
  checkSeconds: 60,
  startedAtMs: START,
  lastCompletedAtMs: null,
  nowMs: START,
};
const STALE_AFTER = 180_000 + TICK_SLACK_MS;

describe(tickFreshness.name, () => {
  it.each<[string, Partial<TickFreshnessInput>, boolean, number]>([
    ['just started, no tick yet: fresh', {}, true, 0],
    ['no tick yet, up to the bound since start: fresh', { nowMs: START + STALE_AFTER }, true, STALE_AFTER],
    [
      'no tick yet, past the bound since start: stale',
      { nowMs: START + STALE_AFTER + 1 },
      false,
      STALE_AFTER + 1,
    ],
    [
      'a tick completed recently: fresh',
      { lastCompletedAtMs: START + 500_000, nowMs: START + 560_000 },
      true,
      60_000,
    ],
    [
      'the last tick is exactly at the bound: fresh',
      { lastCompletedAtMs: START + 10_000, nowMs: START + 10_000 + STALE_AFTER },
      true,
      STALE_AFTER,
    ],
    [
      'the last tick is one ms past the bound: stale',
      { lastCompletedAtMs: START + 10_000, nowMs: START + 10_001 + STALE_AFTER },
      false,
      STALE_AFTER + 1,
    ],
    [
      'a tick older than this process (another replica, before it started) counts from the start',
      { lastCompletedAtMs: START - 900_000, nowMs: START + 1000 },
      true,
      1000,
    ],
    ['a clock that stepped back never reads a negative age', { lastCompletedAtMs: START + 5000 }, true, 0],
    [
      'short intervals give a short bound',
      { checkSeconds: 1, nowMs: START + 3000 + TICK_SLACK_MS + 1 },
      false,
      63_001,
    ],
  ])('%s', (_why, overrides, fresh, ageMs) => {
    const result = tickFreshness({ ...base, ...overrides });
    expect(result).toEqual({
      fresh,
      ageMs,
      staleAfterMs: (overrides.checkSeconds ?? 60) * 3000 + TICK_SLACK_MS,
    });
  });
});
