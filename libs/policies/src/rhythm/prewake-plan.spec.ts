import {
  nextPrewake,
  planPrewakes,
  prewakeWindowMinutes,
  type PrewakeSettings,
  type PrewakeSlot,
} from './prewake-plan';

const DAY = 24 * 60 * 60_000;
const MIN = 60_000;
// A Monday.
const MONDAY = Date.parse('2026-11-02T00:00:00Z');
const settings: PrewakeSettings = { maxPerDay: 4, minMinutes: 2, checkSeconds: 60 };

/** Session starts at `minute` (plus a per-day offset) on each listed day index. */
function startsAt(
  minute: number,
  days: readonly number[],
  jitter: (day: number) => number = () => 0,
): number[] {
  return days.map((day) => MONDAY + day * DAY + (minute + jitter(day)) * MIN);
}

const weekdays = (weeks: number) => Array.from({ length: weeks * 7 }, (_, d) => d).filter((d) => d % 7 < 5);

function plan(starts: number[], now = MONDAY + 28 * DAY, overrides: Partial<PrewakeSettings> = {}, boot = 3) {
  return planPrewakes(
    { ...settings, ...overrides },
    { starts, observedSince: MONDAY, now, bootMinutes: boot, pricePerHour: 0.79 },
  );
}

describe('planPrewakes', () => {
  it('wakes ahead of a session that starts at about the same time every weekday', () => {
    const slots = plan(startsAt(9 * 60, weekdays(4), (d) => (d % 2 === 0 ? -4 : 4)));
    expect(slots).toHaveLength(1);
    const [slot] = slots;
    expect(slot.dayClass).toBe('weekday');
    expect(slot.hitRate).toBeCloseTo(1, 5);
    // Ready one tick before the slot's early edge (its 10th percentile, 08:56): boot 3 + tick 1 ahead.
    expect(slot.wakeMinute).toBeCloseTo(9 * 60 - 4 - 3 - 1, 5);
    // Unused, it stops at the late edge (09:04) plus the floor window.
    expect(slot.untilMinute).toBeCloseTo(9 * 60 + 4 + 2, 5);
    expect(slot.gainUsd).toBeGreaterThan(0);
  });

  it('plans nothing for weekends from weekday sessions', () => {
    expect(plan(startsAt(9 * 60, weekdays(4))).every((slot) => slot.dayClass === 'weekday')).toBe(true);
  });

  it('plans nothing before the slot could be seen on enough days', () => {
    expect(plan(startsAt(9 * 60, [0, 1, 2, 3]), MONDAY + 4 * DAY)).toEqual([]);
    expect(plan(startsAt(9 * 60, [0, 1, 2, 3, 4]), MONDAY + 5 * DAY)).toHaveLength(1);
  });

  it('plans nothing for a slot that came true on less than half the days', () => {
    const everyOtherWeekday = weekdays(4).filter((_, i) => i % 5 < 2);
    expect(plan(startsAt(9 * 60, everyOtherWeekday))).toEqual([]);
  });

  it('plans nothing when starts spread so widely that waiting ahead bills more than the wait saves', () => {
    const spread = startsAt(9 * 60, weekdays(4), (d) => ((d * 37) % 60) - 30);
    expect(plan(spread)).toEqual([]);
  });

  it('plans nothing when pre-wake is capped at zero per day', () => {
    expect(plan(startsAt(9 * 60, weekdays(4)), undefined, { maxPerDay: 0 })).toEqual([]);
  });

  it('keeps two separate sessions, at most maxPerDay', () => {
    const starts = [...startsAt(9 * 60, weekdays(4)), ...startsAt(14 * 60, weekdays(4))];
    expect(plan(starts).map((slot) => Math.round(slot.wakeMinute))).toEqual([9 * 60 - 4, 14 * 60 - 4]);
    expect(plan(starts, undefined, { maxPerDay: 1 })).toHaveLength(1);
  });
});

describe('nextPrewake', () => {
  const slot: PrewakeSlot = {
    dayClass: 'weekday',
    wakeMinute: 8 * 60 + 56,
    untilMinute: 9 * 60 + 30,
    hitRate: 1,
    gainUsd: 0.1,
  };

  it.each([
    { name: 'later today', after: MONDAY + 6 * 60 * MIN, at: MONDAY + (8 * 60 + 56) * MIN },
    {
      name: 'tomorrow once today passed',
      after: MONDAY + 9 * 60 * MIN,
      at: MONDAY + DAY + (8 * 60 + 56) * MIN,
    },
    {
      name: 'Monday after a Friday',
      after: MONDAY + 4 * DAY + 10 * 60 * MIN,
      at: MONDAY + 7 * DAY + (8 * 60 + 56) * MIN,
    },
    { name: 'strictly after', after: MONDAY + (8 * 60 + 56) * MIN, at: MONDAY + DAY + (8 * 60 + 56) * MIN },
  ])('$name', ({ after, at }) => {
    expect(nextPrewake([slot], after)).toEqual({ at, slot });
  });

  it('a slot just after midnight wakes the evening before', () => {
    const early = { ...slot, wakeMinute: -3 };
    expect(nextPrewake([early], MONDAY + DAY + 10 * MIN)?.at).toBe(MONDAY + 2 * DAY - 3 * MIN);
  });

  it('none planned: null', () => {
    expect(nextPrewake([], MONDAY)).toBeNull();
  });
});

describe('prewakeWindowMinutes', () => {
  it.each([
    { wake: 536, until: 570, boot: 3, min: 2, minutes: 31 },
    { wake: 536, until: 540, boot: 3, min: 2, minutes: 2 },
    { wake: 536, until: 570, boot: null, min: 2, minutes: 31 },
  ])('wake $wake until $until, boot $boot → $minutes', ({ wake, until, boot, min, minutes }) => {
    const slot: PrewakeSlot = {
      dayClass: 'weekday',
      wakeMinute: wake,
      untilMinute: until,
      hitRate: 1,
      gainUsd: 1,
    };
    expect(prewakeWindowMinutes(slot, boot, min)).toBe(minutes);
  });
});
