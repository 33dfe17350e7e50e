import { dayClassOf, dayStartOf, minuteOfDay } from './utc-days';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
// A Monday, at UTC midnight.
const MONDAY = Date.parse('2026-11-02T00:00:00Z');

describe('dayStartOf', () => {
  // Days are whole UTC days: the start is the last midnight at or before the instant.
  it.each([
    ['the epoch', 0, 0],
    ['the last millisecond of day 0', DAY - 1, 0],
    ['the first millisecond of day 1', DAY, DAY],
    ['a Monday midnight', MONDAY, MONDAY],
    ['a Monday 10:30', MONDAY + 630 * MIN, MONDAY],
    ['a Monday 23:59:59.999', MONDAY + DAY - 1, MONDAY],
    ['the millisecond before the epoch (floor, not truncation)', -1, -DAY],
  ])('%s starts at %p', (_name, at, start) => {
    expect(dayStartOf(at)).toBe(start);
  });
});

describe('minuteOfDay', () => {
  // Minutes since the UTC midnight, fractional below a minute.
  it.each([
    ['midnight', MONDAY, 0],
    ['10:30:15', Date.parse('2026-11-02T10:30:15Z'), 630.25],
    ['23:59', MONDAY + 1439 * MIN, 1439],
    ['the next midnight', MONDAY + DAY, 0],
    ['one millisecond before midnight', MONDAY + DAY - 1, 1440 - 1 / MIN],
  ])('%s is minute %p', (_name, at, minute) => {
    expect(minuteOfDay(at)).toBeCloseTo(minute, 9);
  });
});

describe('dayClassOf', () => {
  // Saturday and Sunday (UTC) are the weekend; every other day is a weekday, at any hour.
  it.each([
    ['Monday', 0, 'weekday'],
    ['Tuesday', 1, 'weekday'],
    ['Wednesday', 2, 'weekday'],
    ['Thursday', 3, 'weekday'],
    ['Friday', 4, 'weekday'],
    ['Saturday', 5, 'weekend'],
    ['Sunday', 6, 'weekend'],
    ['next Monday', 7, 'weekday'],
  ])('%s is a %s', (_name, offset, dayClass) => {
    const day = MONDAY + offset * DAY;
    expect(dayClassOf(day)).toBe(dayClass);
    expect(dayClassOf(day + DAY - 1)).toBe(dayClass);
  });

  it('counts from the epoch, a Thursday', () => {
    expect(dayClassOf(0)).toBe('weekday');
    expect(dayClassOf(2 * DAY)).toBe('weekend');
    expect(dayClassOf(3 * DAY)).toBe('weekend');
    expect(dayClassOf(4 * DAY)).toBe('weekday');
  });
});
