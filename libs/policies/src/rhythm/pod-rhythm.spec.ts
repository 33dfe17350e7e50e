import { learnRhythm, rhythmDue, windowInForce, type PodRhythm, type RhythmSettings } from './pod-rhythm';
import type { PrewakeSlot } from './prewake-plan';
import type { Boot, Use, UsageRecord } from './usage-record';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
// A Monday; the retention window (28 days) as of NOW begins exactly here.
const MONDAY = Date.parse('2026-11-02T00:00:00Z');
const NOW = MONDAY + 28 * DAY;

const settings: RhythmSettings = {
  policy: 'adaptive',
  idleMinutes: 15,
  minMinutes: 2,
  maxMinutes: 15,
  checkSeconds: 60,
  prewake: true,
  prewakeMaxPerDay: 4,
  retentionDays: 28,
  fallbackPricePerHour: 2,
};

function boot(wakeAt: number, bootMinutes: number, pricePerHour: number | null): Boot {
  return { wakeAt, readyAt: wakeAt + bootMinutes * MIN, gpuId: null, pricePerHour, prewake: false };
}

/**
 * Every weekday of four weeks: a session at 09:00, 09:03 or 09:06 (by day % 3: 7, 7 and 6 days, so the
 * slot runs 09:00 to 09:06 and a hit comes 2.85 minutes after its early edge on average), and a second use
 * 10 minutes later, which is no session start (under maxMinutes of silence) and leaves a 9-minute gap.
 */
function weekdayUses(): Use[] {
  const uses: Use[] = [];
  for (let day = 0; day < 28; day += 1) {
    if (day % 7 >= 5) continue;
    const start = MONDAY + day * DAY + (9 * 60 + (day % 3) * 3) * MIN;
    uses.push({ start, end: start + MIN }, { start: start + 10 * MIN, end: start + 11 * MIN });
  }
  return uses;
}

const LEARNED_WINDOW = { minutes: 9, policy: 'adaptive', basis: 'learned from 39 idle gaps over 28 days' };

/** The 09:00 weekday slot: gain = 0.1 $/min × boot − price/60 × 2.85 early minutes (every day a hit). */
function nineOClock(bootMinutes: number, pricePerHour: number): PrewakeSlot {
  return {
    dayClass: 'weekday',
    wakeMinute: 9 * 60 - bootMinutes - 1,
    untilMinute: 9 * 60 + 6 + 2,
    hitRate: 1,
    gainUsd: 0.1 * bootMinutes - (pricePerHour / 60) * 2.85,
  };
}

function expectRhythm(actual: PodRhythm, expected: PodRhythm): void {
  expect({ ...actual, prewakes: [] }).toEqual({ ...expected, prewakes: [] });
  expect(actual.prewakes).toHaveLength(expected.prewakes.length);
  actual.prewakes.forEach((slot, i) => {
    const { gainUsd, ...rest } = expected.prewakes[i];
    expect(slot).toEqual({ ...rest, gainUsd: expect.any(Number) });
    expect(slot.gainUsd).toBeCloseTo(gainUsd, 12);
  });
}

describe('learnRhythm', () => {
  it('learns window and pre-wakes from the measured boot and the last boot price', () => {
    const rhythm = learnRhythm(
      settings,
      { uses: weekdayUses(), boots: [boot(MONDAY, 4, 0.5)], stops: [] },
      NOW,
    );
    expectRhythm(rhythm, {
      window: LEARNED_WINDOW,
      prewakes: [nineOClock(4, 0.5)],
      bootMinutes: 4,
    } as PodRhythm);
  });

  it('prices the plan at the fallback price when no boot carried one', () => {
    const rhythm = learnRhythm(
      settings,
      { uses: weekdayUses(), boots: [boot(MONDAY, 4, null)], stops: [] },
      NOW,
    );
    expectRhythm(rhythm, {
      window: LEARNED_WINDOW,
      prewakes: [nineOClock(4, 2)],
      bootMinutes: 4,
    } as PodRhythm);
  });

  it('assumes the default 3-minute boot (but reports none) before a boot was measured', () => {
    const rhythm = learnRhythm(settings, { uses: weekdayUses(), boots: [], stops: [] }, NOW);
    expectRhythm(rhythm, {
      window: LEARNED_WINDOW,
      prewakes: [nineOClock(3, 2)],
      bootMinutes: null,
    } as PodRhythm);
  });

  it('ignores uses and boots older than the retention window', () => {
    const old: UsageRecord = {
      uses: [
        { start: MONDAY - 3 * DAY, end: MONDAY - 3 * DAY + MIN },
        { start: MONDAY - MIN, end: MONDAY - 1 },
        ...weekdayUses(),
      ],
      // Counted, the 10-minute boot a day before retention would make the median boot 7 minutes.
      boots: [boot(MONDAY - DAY, 10, 0.05), boot(MONDAY, 4, 0.5)],
      stops: [],
    };
    expectRhythm(learnRhythm(settings, old, NOW), {
      window: LEARNED_WINDOW,
      prewakes: [nineOClock(4, 0.5)],
      bootMinutes: 4,
    } as PodRhythm);
  });

  it.each([
    { name: 'the fixed policy plans no pre-wake', overrides: { policy: 'fixed' as const } },
    { name: 'pre-wake turned off plans none', overrides: { prewake: false } },
  ])('$name', ({ overrides }) => {
    const rhythm = learnRhythm(
      { ...settings, ...overrides },
      { uses: weekdayUses(), boots: [boot(MONDAY, 4, 0.5)], stops: [] },
      NOW,
    );
    expect(rhythm.prewakes).toEqual([]);
    expect(rhythm.bootMinutes).toBe(4);
  });

  it('the fixed policy keeps its fixed window', () => {
    const rhythm = learnRhythm(
      { ...settings, policy: 'fixed' },
      { uses: weekdayUses(), boots: [], stops: [] },
      NOW,
    );
    expect(rhythm).toEqual({
      window: { minutes: 15, policy: 'fixed', basis: 'fixed window of 15 min' },
      prewakes: [],
      bootMinutes: null,
    });
  });

  it.each([
    { name: 'no use at all', uses: [] as Use[] },
    // Only uses older than retention: nothing is left to learn from (and no first use to date it by).
    { name: 'only uses before retention', uses: [{ start: MONDAY - 2 * DAY, end: MONDAY - 2 * DAY + MIN }] },
  ])('$name: the fixed window and no pre-wake', ({ uses }) => {
    expect(learnRhythm(settings, { uses, boots: [boot(MONDAY, 4, 0.5)], stops: [] }, NOW)).toEqual({
      window: {
        minutes: 15,
        policy: 'adaptive',
        basis: 'fixed window until 30 idle gaps are seen (0 so far)',
      },
      prewakes: [],
      bootMinutes: 4,
    });
  });

  it('plans at most prewakeMaxPerDay slots, with its floor window and tick', () => {
    const uses: Use[] = [];
    for (const use of weekdayUses()) {
      uses.push(use, { start: use.start + 5 * 60 * MIN, end: use.end + 5 * 60 * MIN });
    }
    const two = learnRhythm(
      { ...settings, minMinutes: 3, checkSeconds: 120 },
      { uses, boots: [boot(MONDAY, 4, 0.5)], stops: [] },
      NOW,
    );
    expect(two.prewakes.map((slot) => [slot.wakeMinute, slot.untilMinute])).toEqual([
      [9 * 60 - 4 - 2, 9 * 60 + 6 + 3],
      [14 * 60 - 4 - 2, 14 * 60 + 6 + 3],
    ]);
    const one = learnRhythm(
      { ...settings, prewakeMaxPerDay: 1 },
      { uses, boots: [boot(MONDAY, 4, 0.5)], stops: [] },
      NOW,
    );
    expect(one.prewakes).toHaveLength(1);
  });
});

describe('windowInForce', () => {
  const slot: PrewakeSlot = {
    dayClass: 'weekday',
    wakeMinute: 500,
    untilMinute: 540,
    hitRate: 1,
    gainUsd: 0.2,
  };
  const rhythm = (bootMinutes: number | null): PodRhythm => ({
    window: { minutes: 9, policy: 'adaptive', basis: 'learned' },
    prewakes: [slot],
    bootMinutes,
  });

  it.each([
    // A pre-woken pod nobody used keeps its slot's window: until − wake − boot (40 − 5), at least the floor.
    { name: 'pre-woken, unused: the slot window', prewoke: slot, used: false, boot: 5, min: 2, minutes: 35 },
    {
      name: 'pre-woken, unused, no boot measured: default 3',
      prewoke: slot,
      used: false,
      boot: null,
      min: 2,
      minutes: 37,
    },
    {
      name: 'pre-woken, unused: never under the floor',
      prewoke: slot,
      used: false,
      boot: 5,
      min: 36,
      minutes: 36,
    },
    // Any use puts it on the learned window.
    {
      name: 'pre-woken and used: the learned window',
      prewoke: slot,
      used: true,
      boot: 5,
      min: 2,
      minutes: 9,
    },
    {
      name: 'woken by a request: the learned window',
      prewoke: null,
      used: false,
      boot: 5,
      min: 2,
      minutes: 9,
    },
    {
      name: 'woken by a request and used: the learned window',
      prewoke: null,
      used: true,
      boot: 5,
      min: 2,
      minutes: 9,
    },
  ])('$name → $minutes min', ({ prewoke, used, boot: bootMinutes, min, minutes }) => {
    expect(windowInForce(rhythm(bootMinutes), prewoke, used, min)).toBe(minutes);
  });
});

describe('rhythmDue', () => {
  const at = NOW;
  it.each([
    { name: 'never learned', last: null, elapsed: 0, uses: 0, due: true },
    // New uses since: again after 10 minutes.
    { name: 'new use, just under 10 min', last: { at, uses: 5 }, elapsed: 10 * MIN - 1, uses: 6, due: false },
    { name: 'new use, exactly 10 min', last: { at, uses: 5 }, elapsed: 10 * MIN, uses: 6, due: true },
    { name: 'fewer uses (retention), 10 min', last: { at, uses: 5 }, elapsed: 10 * MIN, uses: 4, due: true },
    { name: 'new use, 11 min', last: { at, uses: 5 }, elapsed: 11 * MIN, uses: 6, due: true },
    // No new use: evidence only ages, so again after 6 hours.
    { name: 'no new use, 10 min', last: { at, uses: 5 }, elapsed: 10 * MIN, uses: 5, due: false },
    {
      name: 'no new use, just under 6 h',
      last: { at, uses: 5 },
      elapsed: 360 * MIN - 1,
      uses: 5,
      due: false,
    },
    { name: 'no new use, exactly 6 h', last: { at, uses: 5 }, elapsed: 360 * MIN, uses: 5, due: true },
    { name: 'no new use, 7 h', last: { at, uses: 5 }, elapsed: 420 * MIN, uses: 5, due: true },
  ])('$name → $due', ({ last, elapsed, uses, due }) => {
    expect(rhythmDue(last, at + elapsed, uses)).toBe(due);
  });
});
