import { evidenceWeight } from './evidence-weight';
import { nextPrewake, planPrewakes, type PrewakeSettings, type PrewakeSlot } from './prewake-plan';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
// A Monday; four weeks of evidence up to NOW.
const MONDAY = Date.parse('2026-11-02T00:00:00Z');
const NOW = MONDAY + 28 * DAY;
const WEEKDAYS = Array.from({ length: 28 }, (_, d) => d).filter((d) => d % 7 < 5);
const WEEKEND = Array.from({ length: 28 }, (_, d) => d).filter((d) => d % 7 >= 5);
const settings: PrewakeSettings = { maxPerDay: 4, minMinutes: 2, checkSeconds: 60 };

/** A start on each listed day (index from MONDAY) at `minute(day, i)` of that UTC day. */
function startsOn(days: readonly number[], minute: (day: number, i: number) => number): number[] {
  return days.map((day, i) => MONDAY + day * DAY + minute(day, i) * MIN);
}

interface Evidence {
  readonly now?: number;
  readonly bootMinutes?: number | null;
  readonly pricePerHour?: number;
}

function plan(starts: number[], overrides: Partial<PrewakeSettings> = {}, evidence: Evidence = {}) {
  return planPrewakes(
    { ...settings, ...overrides },
    { starts, observedSince: MONDAY, now: NOW, bootMinutes: 3, pricePerHour: 0.79, ...evidence },
  );
}

/** Share of the days' evidence weight (a day weighs by its age at `now`) that fell on hit days. */
function weightedRate(hitDays: readonly number[], allDays: readonly number[], now = NOW): number {
  const weight = (days: readonly number[]) =>
    days.reduce((sum, day) => sum + evidenceWeight(MONDAY + day * DAY, now), 0);
  return weight(hitDays) / weight(allDays);
}

function expectSlots(actual: PrewakeSlot[], expected: PrewakeSlot[]): void {
  expect(actual.map(({ dayClass }) => dayClass)).toEqual(expected.map(({ dayClass }) => dayClass));
  actual.forEach((slot, i) => {
    expect(Object.keys(slot).sort()).toEqual(['dayClass', 'gainUsd', 'hitRate', 'untilMinute', 'wakeMinute']);
    expect(slot.wakeMinute).toBeCloseTo(expected[i].wakeMinute, 9);
    expect(slot.untilMinute).toBeCloseTo(expected[i].untilMinute, 9);
    expect(slot.hitRate).toBeCloseTo(expected[i].hitRate, 12);
    expect(slot.gainUsd).toBeCloseTo(expected[i].gainUsd, 12);
  });
}

describe('planPrewakes: a slot from its members', () => {
  // Twenty weekdays, one start each at 08:50 + (i × 7 mod 20) minutes: every minute 08:50..09:09 once, out
  // of time order. The slot runs from the members' 5% quantile (08:50 + 0.95) to their 95% (08:50 + 18.05):
  // the starts at 08:50 (day 0) and 09:09 (weekday 17) fall outside it, misses.
  const minuteOf = (i: number) => 530 + ((i * 7) % 20);
  const starts = startsOn(WEEKDAYS, (_, i) => minuteOf(i));
  const lo = 530.95;
  const hi = 548.05;
  const hitDays = WEEKDAYS.filter((_, i) => minuteOf(i) >= lo && minuteOf(i) <= hi);
  const hitRate = weightedRate(hitDays, WEEKDAYS);
  // Mean minutes from the early edge to the start, on the hit days.
  const early =
    WEEKDAYS.map((_, i) => minuteOf(i))
      .filter((minute) => minute >= lo && minute <= hi)
      .reduce((sum, minute) => sum + minute - lo, 0) / hitDays.length;

  /**
   * Gain = the wait a hit saves (boot minutes at $0.10) less the billed minutes: early minutes on a hit,
   * boot plus the whole slot and floor window on a miss.
   */
  function expected(boot: number, tick: number, minMinutes: number, billedPerHour: number): PrewakeSlot {
    const untilMinute = hi + minMinutes;
    const miss = boot + (untilMinute - lo);
    return {
      dayClass: 'weekday',
      wakeMinute: lo - boot - tick,
      untilMinute,
      hitRate,
      gainUsd: hitRate * boot * 0.1 - (billedPerHour / 60) * (hitRate * early + (1 - hitRate) * miss),
    };
  }

  it('pins the slot edges and hits of the example', () => {
    expect(hitDays).toHaveLength(18);
    expect(hitRate).toBeGreaterThan(0.85);
    // (1 + 2 + … + 18) − 18 × 0.95 minutes over 18 hits.
    expect(early).toBeCloseTo(153.9 / 18, 9);
  });

  it.each([
    {
      name: 'measured boot 3, 60 s ticks',
      boot: 3,
      checkSeconds: 60,
      minMinutes: 2,
      price: 0.79,
      slot: expected(3, 1, 2, 0.79),
    },
    {
      name: 'no boot measured: 3 min assumed',
      boot: null,
      checkSeconds: 60,
      minMinutes: 2,
      price: 0.79,
      slot: expected(3, 1, 2, 0.79),
    },
    {
      name: 'a 5-minute boot wakes earlier',
      boot: 5,
      checkSeconds: 60,
      minMinutes: 2,
      price: 0.79,
      slot: expected(5, 1, 2, 0.79),
    },
    {
      name: '120 s ticks wake a tick (2 min) earlier',
      boot: 3,
      checkSeconds: 120,
      minMinutes: 2,
      price: 0.79,
      slot: expected(3, 2, 2, 0.79),
    },
    {
      name: 'the floor window extends the late edge',
      boot: 3,
      checkSeconds: 60,
      minMinutes: 7,
      price: 0.79,
      slot: expected(3, 1, 7, 0.79),
    },
    {
      name: 'a cheaper pod gains more',
      boot: 3,
      checkSeconds: 60,
      minMinutes: 2,
      price: 0.2,
      slot: expected(3, 1, 2, 0.2),
    },
    {
      name: 'a free pod is billed at the $0.01/h floor',
      boot: 3,
      checkSeconds: 60,
      minMinutes: 2,
      price: 0,
      slot: expected(3, 1, 2, 0.01),
    },
  ])('$name', ({ boot, checkSeconds, minMinutes, price, slot }) => {
    expectSlots(plan(starts, { checkSeconds, minMinutes }, { bootMinutes: boot, pricePerHour: price }), [
      slot,
    ]);
  });

  it('the same starts given newest first plan the same slot', () => {
    expectSlots(plan([...starts].reverse()), [expected(3, 1, 2, 0.79)]);
  });

  it('a gain of zero or less plans nothing: at $1.60/h the misses bill more than the waits saved', () => {
    expect(expected(3, 1, 2, 1.6).gainUsd).toBeLessThan(0);
    expect(plan(starts, {}, { pricePerHour: 1.6 })).toEqual([]);
  });
});

describe('planPrewakes: which days count', () => {
  // Monday..Friday at 09:00 and now Friday 09:00 exactly: Friday's slot has ended (its late edge is now),
  // so it counts as a day; the start at now is not evidence yet, so Friday is a miss.
  it('a day counts once its late edge has passed; a start at now is no evidence yet', () => {
    const now = MONDAY + 4 * DAY + 540 * MIN;
    const hitRate = weightedRate([0, 1, 2, 3], [0, 1, 2, 3, 4], now);
    const gainUsd = hitRate * 0.3 - (0.79 / 60) * (1 - hitRate) * (3 + 2);
    expectSlots(
      plan(
        startsOn([0, 1, 2, 3, 4], () => 540),
        {},
        { now },
      ),
      [{ dayClass: 'weekday', wakeMinute: 536, untilMinute: 542, hitRate, gainUsd }],
    );
  });

  it('a millisecond earlier Friday has not ended: four days are too few', () => {
    expect(
      plan(
        startsOn([0, 1, 2, 3, 4], () => 540),
        {},
        { now: MONDAY + 4 * DAY + 540 * MIN - 1 },
      ),
    ).toEqual([]);
  });

  it('a day whose slot began before recording began does not count', () => {
    // Recording began Monday 09:00:00.001: Monday is no evidence, leaving four days.
    const evidence = {
      starts: startsOn([0, 1, 2, 3, 4], () => 540),
      observedSince: MONDAY + 540 * MIN + 1,
      now: MONDAY + 5 * DAY,
      bootMinutes: 3,
      pricePerHour: 0.79,
    };
    expect(planPrewakes(settings, evidence)).toEqual([]);
    expect(planPrewakes(settings, { ...evidence, observedSince: MONDAY + 540 * MIN })).toHaveLength(1);
  });

  it.each([
    // Starts on the odd weekdays only: the more recent half, weighing just over half.
    { name: 'the recent half of the days: just over 50%', hit: (i: number) => i % 2 === 1, planned: true },
    // The even ones: the older half, just under 50%, though still 40 points above chance.
    { name: 'the older half of the days: just under 50%', hit: (i: number) => i % 2 === 0, planned: false },
  ])('a slot must come true on half the (weighted) days: $name', ({ hit, planned }) => {
    const hitDays = WEEKDAYS.filter((_, i) => hit(i));
    const hitRate = weightedRate(hitDays, WEEKDAYS);
    expect(hitRate >= 0.5).toBe(planned);
    expect(hitRate).toBeGreaterThan(0.45);
    const slots = plan(startsOn(hitDays, () => 540));
    if (planned) {
      const gainUsd = hitRate * 0.3 - (0.79 / 60) * (1 - hitRate) * 5;
      expectSlots(slots, [{ dayClass: 'weekday', wakeMinute: 536, untilMinute: 542, hitRate, gainUsd }]);
    } else {
      expect(slots).toEqual([]);
    }
  });
});

describe('planPrewakes: grouping starts into slots', () => {
  it('starts exactly 30 minutes apart are one slot (both ends of the radius included)', () => {
    const starts = [...startsOn(WEEKDAYS, () => 540), ...startsOn(WEEKDAYS, () => 570)];
    expectSlots(plan(starts), [
      { dayClass: 'weekday', wakeMinute: 536, untilMinute: 572, hitRate: 1, gainUsd: 0.3 },
    ]);
  });

  it('a start exactly 30 minutes before a grid centre joins that centre, which then overlaps the first slot', () => {
    // 08:30 is its own slot; 09:02 rounds to the 09:00 centre, whose members reach back to 08:30 inclusive,
    // so its slot (08:30..09:02) overlaps 08:30's and, gaining no more, is dropped.
    const starts = [...startsOn(WEEKDAYS, () => 510), ...startsOn(WEEKDAYS, () => 542)];
    expectSlots(plan(starts), [
      { dayClass: 'weekday', wakeMinute: 506, untilMinute: 512, hitRate: 1, gainUsd: 0.3 },
    ]);
  });

  it('minutes sort as numbers, not text (96 before 104)', () => {
    // Alternating 01:36 and 01:44: the slot spans both. Gain = 0.3 less the mean 4 early minutes billed.
    const starts = startsOn(WEEKDAYS, (day) => (day % 2 === 1 ? 96 : 104));
    const gainUsd =
      0.3 -
      (0.79 / 60) *
        early(
          WEEKDAYS.map((day) => (day % 2 === 1 ? 96 : 104)),
          96,
        );
    expectSlots(plan(starts.reverse()), [
      { dayClass: 'weekday', wakeMinute: 92, untilMinute: 106, hitRate: 1, gainUsd },
    ]);
  });
});

function early(minutes: readonly number[], lo: number): number {
  return minutes.reduce((sum, minute) => sum + minute - lo, 0) / minutes.length;
}

describe('planPrewakes: choosing among slots', () => {
  // With a 40-minute floor window a 09:00 slot runs 08:56..09:40 and a 09:44 slot wakes at 09:40: they touch
  // but do not overlap, so both are kept whichever is chosen first.
  it.each([
    { name: 'the earlier chosen first (equal gains)', missFirstDay: false },
    { name: 'the later chosen first (it gains more)', missFirstDay: true },
  ])('slots that only touch are both kept: $name', ({ missFirstDay }) => {
    const earlyDays = missFirstDay ? WEEKDAYS.slice(1) : WEEKDAYS;
    const hitRate = weightedRate(earlyDays, WEEKDAYS);
    const starts = [...startsOn(earlyDays, () => 540), ...startsOn(WEEKDAYS, () => 584)];
    expectSlots(plan(starts, { minMinutes: 40 }), [
      {
        dayClass: 'weekday',
        wakeMinute: 536,
        untilMinute: 580,
        hitRate,
        gainUsd: hitRate * 0.3 - (0.79 / 60) * (1 - hitRate) * (3 + 40),
      },
      { dayClass: 'weekday', wakeMinute: 580, untilMinute: 624, hitRate: 1, gainUsd: 0.3 },
    ]);
  });

  it('one minute closer they overlap: only the higher gain is kept', () => {
    const starts = [...startsOn(WEEKDAYS.slice(1), () => 540), ...startsOn(WEEKDAYS, () => 583)];
    expectSlots(plan(starts, { minMinutes: 40 }), [
      { dayClass: 'weekday', wakeMinute: 579, untilMinute: 623, hitRate: 1, gainUsd: 0.3 },
    ]);
  });

  // 09:00 weekdays (missing the first Monday: gains less), 14:00 weekdays, 10:00 weekends.
  const mixed = [
    ...startsOn(WEEKDAYS.slice(1), () => 540),
    ...startsOn(WEEKDAYS, () => 840),
    ...startsOn(WEEKEND, () => 600),
  ];
  const nineHitRate = weightedRate(WEEKDAYS.slice(1), WEEKDAYS);
  const nine: PrewakeSlot = {
    dayClass: 'weekday',
    wakeMinute: 536,
    untilMinute: 542,
    hitRate: nineHitRate,
    gainUsd: nineHitRate * 0.3 - (0.79 / 60) * (1 - nineHitRate) * 5,
  };
  const two: PrewakeSlot = {
    dayClass: 'weekday',
    wakeMinute: 836,
    untilMinute: 842,
    hitRate: 1,
    gainUsd: 0.3,
  };
  const ten: PrewakeSlot = {
    dayClass: 'weekend',
    wakeMinute: 596,
    untilMinute: 602,
    hitRate: 1,
    gainUsd: 0.3,
  };

  it.each([
    // Weekdays first, then weekends, each by wake time (not by gain, nor mixed by time of day).
    { maxPerDay: 4, slots: [nine, two, ten] },
    { maxPerDay: 2, slots: [nine, two, ten] },
    // The cap is per kind of day and keeps the higher gain.
    { maxPerDay: 1, slots: [two, ten] },
    { maxPerDay: 0, slots: [] },
    { maxPerDay: -1, slots: [] },
  ])('at most $maxPerDay per kind of day, in order', ({ maxPerDay, slots }) => {
    expectSlots(plan(mixed, { maxPerDay }), slots);
  });
});

describe('planPrewakes: a time of day, not merely busy traffic', () => {
  // Weekdays, a start somewhere in 09:00..09:28.5 each day, and a cheap pod so the wide slot pays off.
  const wide = startsOn(WEEKDAYS, (_, i) => 540 + ((i * 11) % 20) * 1.5);

  it('a wide slot on an otherwise quiet day is planned', () => {
    expect(plan(wide, {}, { pricePerHour: 0.05 })).toHaveLength(1);
  });

  it('the same slot is no pre-wake when the day holds so many starts that any such window fills as often', () => {
    // A start every 5 minutes of every weekday night (00:00..05:55): 0.05 starts a minute over the day, so a
    // 25-minute window catches one 73% of the time, and the slot's 96% is not 40 points above that.
    const night = WEEKDAYS.flatMap((day) =>
      Array.from({ length: 72 }, (_, k) => MONDAY + day * DAY + k * 5 * MIN),
    );
    expect(plan([...wide, ...night], {}, { pricePerHour: 0.05 })).toEqual([]);
  });

  it('starts every few minutes all night are never a slot', () => {
    const night = WEEKDAYS.flatMap((day) =>
      Array.from({ length: 72 }, (_, k) => MONDAY + day * DAY + k * 5 * MIN),
    );
    expect(plan(night, {}, { pricePerHour: 0.05 })).toEqual([]);
  });
});

describe('nextPrewake: across slots', () => {
  const weekday: PrewakeSlot = {
    dayClass: 'weekday',
    wakeMinute: 536,
    untilMinute: 542,
    hitRate: 1,
    gainUsd: 0.3,
  };
  const weekdayLate: PrewakeSlot = { ...weekday, wakeMinute: 836, untilMinute: 842 };
  const weekend: PrewakeSlot = {
    dayClass: 'weekend',
    wakeMinute: 596,
    untilMinute: 602,
    hitRate: 1,
    gainUsd: 0.3,
  };
  const SATURDAY = MONDAY + 5 * DAY;

  it.each([
    {
      name: 'the earliest of the day',
      slots: [weekdayLate, weekday],
      after: MONDAY,
      at: MONDAY + 536 * MIN,
      slot: weekday,
    },
    {
      name: 'the later one once the first passed',
      slots: [weekday, weekdayLate],
      after: MONDAY + 600 * MIN,
      at: MONDAY + 836 * MIN,
      slot: weekdayLate,
    },
    {
      name: 'a weekend slot on Saturday after a Friday',
      slots: [weekday, weekend],
      after: MONDAY + 4 * DAY + 900 * MIN,
      at: SATURDAY + 596 * MIN,
      slot: weekend,
    },
    {
      name: 'a weekend slot six days on from Sunday night',
      slots: [weekend],
      after: SATURDAY + DAY + 1000 * MIN,
      at: SATURDAY + 7 * DAY + 596 * MIN,
      slot: weekend,
    },
    {
      name: 'a weekday slot skips the weekend',
      slots: [weekday],
      after: SATURDAY,
      at: SATURDAY + 2 * DAY + 536 * MIN,
      slot: weekday,
    },
    {
      name: 'a tie keeps the slot listed first',
      slots: [weekday, { ...weekday, untilMinute: 600 }],
      after: MONDAY,
      at: MONDAY + 536 * MIN,
      slot: weekday,
    },
    // A wake one millisecond after `after` is strictly after it.
    {
      name: 'a millisecond ahead',
      slots: [weekday],
      after: MONDAY + 536 * MIN - 1,
      at: MONDAY + 536 * MIN,
      slot: weekday,
    },
  ])('$name', ({ slots, after, at, slot }) => {
    const next = nextPrewake(slots, after);
    expect(next).toEqual({ at, slot });
    expect(next?.slot).toBe(slot);
  });
});

describe('planPrewakes: hits that chance alone would explain', () => {
  // A start at 12:00 on each of the first `days` weekdays, plus one every minute of the night (00:00 up to
  // `nightMinutes`). The night makes a one-minute window fill by chance with p = 1 − e^(−starts per minute),
  // so `days` hits in `days` days come by chance with p^days; the slot counts only when that is at most
  // 5% divided by the slots tried (the night's 5-minute grid centres and noon's).
  it.each([
    { days: 5, nightMinutes: 360, planned: true }, // 0.2217^5 = 5.4e-4 ≤ 0.05 / 74 = 6.8e-4
    { days: 5, nightMinutes: 480, planned: false }, // 0.2840^5 = 1.8e-3 > 0.05 / 98 = 5.1e-4
    { days: 6, nightMinutes: 480, planned: false }, // 0.2840^6 = 5.24e-4 > 5.10e-4
    { days: 7, nightMinutes: 480, planned: true }, // 0.2840^7 = 1.5e-4
    { days: 7, nightMinutes: 600, planned: false }, // 0.3412^7 = 5.4e-4 > 0.05 / 122 = 4.1e-4
  ])(
    '$days of $days days against $nightMinutes night minutes: planned $planned',
    ({ days, nightMinutes, planned }) => {
      const chosenDays = WEEKDAYS.slice(0, days);
      const starts = chosenDays.flatMap((day) => [
        ...Array.from({ length: nightMinutes }, (_, k) => MONDAY + day * DAY + k * MIN),
        MONDAY + day * DAY + 720 * MIN,
      ]);
      const now = MONDAY + (chosenDays[days - 1] + 1) * DAY;
      expect(plan(starts, {}, { now })).toEqual(
        planned
          ? [
              {
                dayClass: 'weekday',
                wakeMinute: 716,
                untilMinute: 722,
                hitRate: 1,
                gainUsd: expect.closeTo(0.3, 12),
              },
            ]
          : [],
      );
    },
  );
});

describe('planPrewakes: edges the mutation run of 2026-12-06 left unpinned', () => {
  it('weekend starts do not shape the weekday slot (each kind of day learns from its own starts)', () => {
    // Weekdays at 09:00, weekends at 09:10: were the weekend minutes weekday members, the weekday slot
    // would run to 09:10.
    const starts = [...startsOn(WEEKDAYS, () => 540), ...startsOn(WEEKEND, () => 550)];
    expectSlots(plan(starts), [
      { dayClass: 'weekday', wakeMinute: 536, untilMinute: 542, hitRate: 1, gainUsd: 0.3 },
      { dayClass: 'weekend', wakeMinute: 546, untilMinute: 552, hitRate: 1, gainUsd: 0.3 },
    ]);
  });

  it('the day in progress is no day of traffic yet: 6 of 6 against 480 night minutes, now 06:00', () => {
    // As the table above (0.2840^6 > 0.05 / 98), but now is 06:00 of the next weekday: counting that day
    // would spread the starts over 7 days (0.2489^6 = 2.4e-4) and plan the slot.
    const chosenDays = WEEKDAYS.slice(0, 6);
    const starts = chosenDays.flatMap((day) => [
      ...Array.from({ length: 480 }, (_, k) => MONDAY + day * DAY + k * MIN),
      MONDAY + day * DAY + 720 * MIN,
    ]);
    expect(plan(starts, {}, { now: MONDAY + 8 * DAY + 360 * MIN })).toEqual([]);
  });

  // Each weekday one start at 11:30, 12:30 or 12:00 in turn: the 12:00 centre's slot spans 11:30..12:30 and
  // comes true every day (the half-hour slots beside it lack lift). A start at `minute` on two days in three
  // fills the hour after (13:20) or before (10:40) about as often: 1 − 0.67 is not 40 points of lift (though
  // 0.67^20 would pass the chance test), so only that start's own slot is planned.
  it.each([
    { name: 'the hour after the slot', minute: 800 },
    { name: 'the hour before the slot', minute: 640 },
  ])('a wide slot whose neighbour window fills two days in three is no pre-wake: $name', ({ minute }) => {
    const starts = [
      ...startsOn(WEEKDAYS, (_, i) => [690, 750, 720][i % 3]),
      ...startsOn(
        WEEKDAYS.filter((_, i) => i % 3 !== 0),
        () => minute,
      ),
    ];
    const slots = plan(starts, {}, { pricePerHour: 0.05 });
    expect(slots.map(({ wakeMinute, untilMinute }) => [wakeMinute, untilMinute])).toEqual([
      [minute - 4, minute + 2],
    ]);
  });

  /**
   * Weekdays of `weeks` weeks, now the Monday after; hit days chosen newest first while their weight stays
   * under `share` of the days' weight so far (old days weigh little: the share comes out exact).
   */
  function daysOfShare(weeks: number, share: number) {
    const days = Array.from({ length: weeks * 7 }, (_, d) => d).filter((d) => d % 7 < 5);
    const now = MONDAY + weeks * 7 * DAY;
    const hits: number[] = [];
    let hit = 0;
    let all = 0;
    for (const day of [...days].reverse()) {
      const weight = evidenceWeight(MONDAY + day * DAY, now);
      if (hit < share * (all + weight)) {
        hit += weight;
        hits.unshift(day);
      }
      all += weight;
    }
    return { days, now, hits };
  }

  it('a slot that came true on exactly half the (weighted) days is planned', () => {
    const { days, now, hits } = daysOfShare(47, 0.5);
    expect(weightedRate(hits, days, now)).toBe(0.5);
    expectSlots(
      plan(
        startsOn(hits, () => 540),
        {},
        { now },
      ),
      [
        {
          dayClass: 'weekday',
          wakeMinute: 536,
          untilMinute: 542,
          hitRate: 0.5,
          gainUsd: 0.5 * 0.3 - (0.79 / 60) * 0.5 * 5,
        },
      ],
    );
  });

  it('a lift of exactly 40 points is enough: every day in the slot, 60% in the hour before', () => {
    // The wide 11:30..12:30 slot as above, over 49 weeks; 10:40 starts on days weighing exactly 60%
    // (the greedy choice plus the first Tuesday, which lands the share on 0.6 exactly).
    const { days, now, hits } = daysOfShare(49, 0.6);
    expect(hits).not.toContain(1);
    const before = [...hits, 1].sort((a, b) => a - b);
    expect(weightedRate(before, days, now)).toBe(0.6);
    const starts = [...startsOn(days, (_, i) => [690, 750, 720][i % 3]), ...startsOn(before, () => 640)];
    const slots = plan(starts, {}, { now, pricePerHour: 0.05 });
    expect(slots.map(({ wakeMinute, untilMinute }) => [wakeMinute, untilMinute])).toEqual([
      [636, 642],
      [686, 752],
    ]);
    expect(slots[1].hitRate).toBe(1);
  });

  it('a pod that boots instantly gains nothing from a pre-wake (a gain of exactly zero plans nothing)', () => {
    // Every weekday at 09:00 sharp: no wait to save and no minute billed early, gain 0.
    expect(
      plan(
        startsOn(WEEKDAYS, () => 540),
        {},
        { bootMinutes: 0 },
      ),
    ).toEqual([]);
  });
});

describe('nextPrewake: a wake more than a day ahead of its session', () => {
  it('a weekend slot waking 25 h ahead, from Friday 23:00: eight days on (Thursday 23:00 next week)', () => {
    // Saturday's wake was Thursday 23:00, Sunday's is Friday 23:00 (not strictly after): next Saturday's.
    const slot: PrewakeSlot = {
      dayClass: 'weekend',
      wakeMinute: -1500,
      untilMinute: 2,
      hitRate: 1,
      gainUsd: 0.3,
    };
    const after = MONDAY + 4 * DAY + 23 * 60 * MIN;
    expect(nextPrewake([slot], after)).toEqual({ at: MONDAY + 12 * DAY - 1500 * MIN, slot });
  });
});

describe('nextPrewake: a wake days ahead of its session (a boot of days, as a what-if trace may claim)', () => {
  /** The oracle: the earliest wake strictly after `after` over ninety days of the slot's sessions. */
  function earliestWake(slot: PrewakeSlot, after: number): number | null {
    let best: number | null = null;
    for (let day = MONDAY - 30 * DAY; day < MONDAY + 60 * DAY; day += DAY) {
      const weekday = new Date(day).getUTCDay();
      const dayClass = weekday === 0 || weekday === 6 ? 'weekend' : 'weekday';
      const at = day + slot.wakeMinute * MIN;
      if (dayClass === slot.dayClass && at > after && (best === null || at < best)) best = at;
    }
    return best;
  }

  it.each(['weekday', 'weekend'] as const)(
    'a %s slot waking up to eight days early: the same wake as the oracle, from every hour of a week',
    (dayClass) => {
      const wrong: string[] = [];
      for (let wakeMinute = -8 * 24 * 60; wakeMinute < 24 * 60; wakeMinute += 53) {
        const slot: PrewakeSlot = {
          dayClass,
          wakeMinute,
          untilMinute: wakeMinute + 30,
          hitRate: 1,
          gainUsd: 1,
        };
        for (let hour = 0; hour < 7 * 24; hour += 1) {
          const after = MONDAY + 7 * DAY + hour * 60 * MIN;
          if (nextPrewake([slot], after)?.at !== earliestWake(slot, after))
            wrong.push(`${wakeMinute}@${hour}h`);
        }
      }
      expect(wrong).toEqual([]);
    },
  );

  it('a weekend slot waking 49 h ahead, from Thursday 23:30: Wednesday 23:00 of next week (not none)', () => {
    const slot: PrewakeSlot = {
      dayClass: 'weekend',
      wakeMinute: -2940,
      untilMinute: 2,
      hitRate: 1,
      gainUsd: 1,
    };
    // This Sunday's wake was Thursday 23:00, just before; the next is next Saturday's, 49 h before it.
    const after = MONDAY + 3 * DAY + (23 * 60 + 30) * MIN;
    expect(nextPrewake([slot], after)?.at).toBe(MONDAY + 12 * DAY - 2940 * MIN);
  });
});
