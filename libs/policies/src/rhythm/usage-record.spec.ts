import {
  EMPTY_USAGE,
  latestPrice,
  measuredBootMinutes,
  retainUsage,
  type Boot,
  type StopMark,
  type Use,
  type UsageRecord,
} from './usage-record';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const T0 = Date.parse('2026-11-02T10:00:00Z');

function boot(bootMinutes: number, pricePerHour: number | null = 0.5, wakeAt = T0): Boot {
  return { wakeAt, readyAt: wakeAt + bootMinutes * MIN, gpuId: null, pricePerHour, prewake: false };
}

describe('EMPTY_USAGE', () => {
  it('holds no uses, boots or stops', () => {
    expect(EMPTY_USAGE).toEqual({ uses: [], boots: [], stops: [] });
  });
});

describe('measuredBootMinutes', () => {
  // The median boot (wake to ready) in minutes: the middle one, or the mean of the two middle ones.
  it.each<[string, number[], number | null]>([
    ['no boot measured', [], null],
    ['one boot', [3], 3],
    ['a boot ready the moment it woke', [0], 0],
    ['a fractional boot', [2.5], 2.5],
    ['an odd count, unsorted: the middle value', [10, 1, 4], 4],
    ['an odd count, largest first', [9, 7, 1, 2, 8], 7],
    ['an even count: the mean of the two middle values', [10, 1, 2, 4], 3],
    ['two boots', [6, 2], 4],
    ['an even count, unsorted', [8, 1, 5, 3, 2, 9], 4],
  ])('%s', (_name, minutes, expected) => {
    expect(measuredBootMinutes(minutes.map((m) => boot(m)))).toBe(expected);
  });

  it('ignores a boot whose ready time comes before its wake (a clock skew)', () => {
    expect(measuredBootMinutes([boot(-1)])).toBeNull();
    expect(measuredBootMinutes([boot(-1), boot(5)])).toBe(5);
    expect(measuredBootMinutes([boot(-0.001), boot(4), boot(6)])).toBe(5);
  });
});

describe('latestPrice', () => {
  // The newest boot with a positive price; older ones only when newer ones carry none.
  it.each<[string, (number | null)[], number | null]>([
    ['no boot', [], null],
    ['a single priced boot', [0.79], 0.79],
    ['the newest of several', [0.4, 0.6], 0.6],
    ['an older price when the newest carries none', [0.4, null], 0.4],
    ['an older price when the newest is free (0 is no price)', [0.4, 0], 0.4],
    ['an older price when the newest is negative', [0.4, -1], 0.4],
    ['the first boot when every later one lacks a price', [0.3, null, 0, null], 0.3],
    ['none when no boot has a positive price', [null, 0, -0.5], null],
  ])('%s', (_name, prices, expected) => {
    expect(latestPrice(prices.map((price) => boot(3, price)))).toBe(expected);
  });
});

describe('retainUsage', () => {
  const NOW = T0 + 10 * DAY;
  const use = (end: number): Use => ({ start: end - MIN, end });
  const stop = (at: number): StopMark => ({ at, trigger: 'idle' });

  it.each([
    // The window is retentionDays whole days back from now, its edge kept.
    [1, NOW - DAY],
    [2, NOW - 2 * DAY],
    [7, NOW - 7 * DAY],
  ])('with %p retention days keeps what reaches back to exactly now - that many days', (days, since) => {
    const record: UsageRecord = {
      uses: [use(since - 1), use(since), use(NOW)],
      boots: [boot(3, 0.5, since - 1), boot(3, 0.5, since), boot(3, 0.5, NOW)],
      stops: [stop(since - 1), stop(since), stop(NOW)],
    };
    expect(retainUsage(record, NOW, days, 100)).toEqual({
      uses: [use(since), use(NOW)],
      boots: [boot(3, 0.5, since), boot(3, 0.5, NOW)],
      stops: [stop(since), stop(NOW)],
    });
  });

  it('keeps a use by its end: one that started before the window but ended inside stays', () => {
    const since = NOW - DAY;
    const straddling = { start: since - 5 * MIN, end: since + MIN };
    expect(retainUsage({ uses: [straddling], boots: [], stops: [] }, NOW, 1, 10).uses).toEqual([straddling]);
  });

  it.each([
    // At most maxUses uses, the newest ones; boots and stops are not capped.
    [3, [1, 2, 3]],
    [4, [1, 2, 3]],
    [2, [2, 3]],
    [1, [3]],
    [0, []],
  ])('with maxUses %p keeps uses %p (by minute)', (maxUses, kept) => {
    const record: UsageRecord = {
      uses: [1, 2, 3].map((m) => use(NOW - (4 - m) * MIN)),
      boots: [boot(3, 0.5, NOW - MIN), boot(3, 0.5, NOW)],
      stops: [stop(NOW - MIN), stop(NOW)],
    };
    expect(retainUsage(record, NOW, 1, maxUses)).toEqual({
      uses: kept.map((m) => use(NOW - (4 - m) * MIN)),
      boots: record.boots,
      stops: record.stops,
    });
  });

  it('caps the uses left after the retention window, not before', () => {
    const since = NOW - DAY;
    const record: UsageRecord = {
      uses: [use(since - 2), use(since - 1), use(since), use(NOW)],
      boots: [],
      stops: [],
    };
    expect(retainUsage(record, NOW, 1, 2).uses).toEqual([use(since), use(NOW)]);
  });
});
