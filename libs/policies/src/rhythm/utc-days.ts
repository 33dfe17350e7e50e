/** Weekdays and weekends keep different hours; days are UTC days. */
export type DayClass = 'weekday' | 'weekend';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export function dayStartOf(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

export function minuteOfDay(at: number): number {
  return (at - dayStartOf(at)) / MINUTE_MS;
}

export function dayClassOf(at: number): DayClass {
  // 1970-01-01 was a Thursday: day 0 is weekday 4 (Sunday = 0).
  const weekday = (Math.floor(at / DAY_MS) + 4) % 7;
  return weekday === 0 || weekday === 6 ? 'weekend' : 'weekday';
}
