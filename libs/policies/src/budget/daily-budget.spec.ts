import {
  budgetRefusal,
  reservationFits,
  reservationMicros,
  toMicros,
  uptimeMicros,
  utcDay,
  worstCaseMinutes,
} from './daily-budget';

const NOON = Date.parse('2026-12-01T12:00:00Z');

describe('daily budget arithmetic', () => {
  it.each<[string, number, number, number]>([
    ['the runtime cap when it is on', 360, NOON, 360],
    ['a decimal cap as given', 0.5, NOON, 0.5],
    ['the rest of the UTC day when the cap is off', 0, NOON, 720],
    ['one minute before midnight: one minute', 0, Date.parse('2026-12-01T23:59:00Z'), 1],
    ['at midnight: a whole day', 0, Date.parse('2026-12-02T00:00:00Z'), 1440],
  ])('worst case: %s', (_rule, cap, now, minutes) => {
    expect(worstCaseMinutes(cap, now)).toBeCloseTo(minutes, 9);
  });

  it.each<[number, number, number]>([
    [1, 60, 1_000_000],
    [0.49, 360, 2_940_000],
    [0.86, 0.2, 2_867],
    [0, 360, 0],
  ])('%s USD/h × %s min reserves %s µUSD (rounded up)', (price, minutes, micros) => {
    expect(reservationMicros(price, minutes)).toBe(micros);
  });

  it('uptime is priced by the millisecond and never negative', () => {
    expect(uptimeMicros(3.6, 0, 1000)).toBe(1000);
    expect(uptimeMicros(1, 5000, 1000)).toBe(0);
  });

  it.each<[number, number, number, number, boolean]>([
    [0, 0, 1_000_000, 1_000_000, true],
    [400_000, 500_000, 100_000, 1_000_000, true],
    [400_000, 500_000, 100_001, 1_000_000, false],
    [1_000_000, 0, 1, 1_000_000, false],
  ])('spent %s + reserved %s + %s within %s: %s', (spent, reserved, amount, budget, fits) => {
    expect(
      reservationFits({ spentMicros: spent, reservedMicros: reserved, budgetMicros: budget }, amount),
    ).toBe(fits);
  });

  it('toMicros and utcDay', () => {
    expect(toMicros(25)).toBe(25_000_000);
    expect(toMicros(0.01)).toBe(10_000);
    expect(utcDay(Date.parse('2026-12-01T23:59:59.999Z'))).toBe('2026-12-01');
  });

  it('the refusal names spent, reserved, the wake and the budget', () => {
    expect(
      budgetRefusal(
        { spentMicros: 1_500_000, reservedMicros: 2_000_000, budgetMicros: 4_000_000 },
        1_000_000,
        1,
        60,
      ),
    ).toBe(
      "daily budget exceeded: spent 1.50 USD + reserved 2.00 USD + this wake's 1.00 USD (1 USD/h × 60 min) would exceed DAILY_BUDGET_USD 4.00 USD; nothing was started or created",
    );
  });
});
