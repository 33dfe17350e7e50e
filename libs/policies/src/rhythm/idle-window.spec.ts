import type { IdleGap } from './idle-gaps';
import { chooseIdleWindow, type IdleWindowSettings } from './idle-window';
import { MIN_GAPS_TO_JUDGE } from './rhythm-constants';

const DAY = 24 * 60 * 60_000;
const NOW = Date.parse('2026-12-01T12:00:00Z');
const adaptive: IdleWindowSettings = {
  policy: 'adaptive',
  idleMinutes: 15,
  minMinutes: 2,
  maxMinutes: 15,
  checkSeconds: 60,
};

/** `count` gaps of each length, spread over the last days. */
function gaps(spec: readonly [minutes: number, count: number][]): IdleGap[] {
  const out: IdleGap[] = [];
  let i = 0;
  for (const [minutes, count] of spec) {
    for (let k = 0; k < count; k += 1) out.push({ minutes, endedAt: NOW - ((i++ % 10) * DAY) / 10 });
  }
  return out;
}

function choose(
  spec: readonly [number, number][],
  overrides: Partial<IdleWindowSettings> = {},
  price = 0.79,
) {
  return chooseIdleWindow(
    { ...adaptive, ...overrides },
    { gaps: gaps(spec), bootMinutes: 3, pricePerHour: price, now: NOW },
  );
}

describe('chooseIdleWindow', () => {
  it('fixed keeps IDLE_MINUTES whatever the gaps', () => {
    expect(
      choose(
        [
          [0.1, 100],
          [40, 20],
        ],
        { policy: 'fixed' },
      ),
    ).toEqual({
      minutes: 15,
      policy: 'fixed',
      basis: 'fixed window of 15 min',
    });
  });

  it('adaptive keeps IDLE_MINUTES until it has seen enough gaps', () => {
    const window = choose([[0.1, MIN_GAPS_TO_JUDGE - 1]]);
    expect(window.minutes).toBe(15);
    expect(window.basis).toBe(
      `fixed window until ${MIN_GAPS_TO_JUDGE} idle gaps are seen (${MIN_GAPS_TO_JUDGE - 1} so far)`,
    );
  });

  it.each([
    // Gaps either seconds long or far beyond the ceiling: the floor starts no more cold.
    {
      name: 'bursts: floor',
      spec: [
        [0.1, 200],
        [40, 30],
      ],
      minutes: 2,
    },
    // Turns a minute or two apart: the window covers the longest turn gap, on the tick grid.
    {
      name: 'conversation turns',
      spec: [
        [1.3, 100],
        [1.9, 50],
        [300, 10],
      ],
      minutes: 2,
    },
    {
      name: 'turns up to 4 min',
      spec: [
        [0.5, 100],
        [3.6, 40],
        [300, 10],
      ],
      minutes: 4,
    },
    // Every gap within the ceiling must stay covered when the fixed window never starts cold.
    {
      name: 'no long gap: covers the longest',
      spec: [
        [1, 50],
        [9.5, 2],
      ],
      minutes: 10,
    },
    // A spread of gaps across the whole range: any shorter window adds cold starts; it covers the longest.
    {
      name: 'gaps spread over the range',
      spec: [
        [1, 20],
        [5, 20],
        [10, 20],
        [14, 20],
        [30, 20],
      ],
      minutes: 14,
    },
    // A rare mid gap (under 2% of the long ones) may go cold when it saves the window's minutes.
    {
      name: 'one rare mid gap',
      spec: [
        [0.2, 200],
        [8, 1],
        [60, 100],
      ],
      minutes: 2,
    },
    {
      name: 'mid gaps beyond the share',
      spec: [
        [0.2, 200],
        [8, 3],
        [60, 100],
      ],
      minutes: 8,
    },
  ])('$name → $minutes min', ({ spec, minutes }) => {
    const window = choose(spec as [number, number][]);
    expect(window.minutes).toBe(minutes);
    expect(window.policy).toBe('adaptive');
  });

  it('stays within the floor and the ceiling', () => {
    expect(
      choose(
        [
          [0.1, 100],
          [40, 10],
        ],
        { minMinutes: 3.5, checkSeconds: 30 },
      ).minutes,
    ).toBe(3.5);
    // A floor between ticks is the ticks' window: the phase machine counts whole ticks.
    expect(
      choose(
        [
          [0.1, 100],
          [40, 10],
        ],
        { minMinutes: 3.5 },
      ).minutes,
    ).toBe(4);
    // 11.5 on the tick grid is 12, above the ceiling: the ceiling wins.
    expect(
      choose(
        [
          [1, 20],
          [11.5, 20],
          [30, 20],
        ],
        { maxMinutes: 11.5 },
      ).minutes,
    ).toBe(11.5);
  });

  it('rounds up to whole ticks so a covered gap stays covered', () => {
    expect(
      choose(
        [
          [0.5, 100],
          [4.1, 40],
          [300, 10],
        ],
        { checkSeconds: 120 },
      ).minutes,
    ).toBe(6);
  });

  it('says what it learned from', () => {
    expect(
      choose([
        [0.1, 200],
        [40, 30],
      ]).basis,
    ).toBe('learned from 230 idle gaps over 1 day');
  });

  it('weighs old evidence less: mid gaps from a month ago no longer hold the window up', () => {
    const recent = gaps([
      [0.2, 200],
      [60, 100],
    ]);
    const old = Array.from({ length: 6 }, () => ({ minutes: 8, endedAt: NOW - 35 * DAY }));
    const window = chooseIdleWindow(adaptive, {
      gaps: [...recent, ...old],
      bootMinutes: 3,
      pricePerHour: 0.79,
      now: NOW,
    });
    expect(window.minutes).toBe(2);
    const fresh = old.map((gap) => ({ ...gap, endedAt: NOW - DAY }));
    expect(
      chooseIdleWindow(adaptive, {
        gaps: [...recent, ...fresh],
        bootMinutes: 3,
        pricePerHour: 0.79,
        now: NOW,
      }).minutes,
    ).toBe(8);
  });
});

describe('chooseIdleWindow: exact rules', () => {
  /** `count` gaps of each length, all ending now: each weighs exactly 1. */
  function fresh(spec: readonly [minutes: number, count: number][]): IdleGap[] {
    return spec.flatMap(([minutes, count]) =>
      Array.from({ length: count }, () => ({ minutes, endedAt: NOW })),
    );
  }

  const pick = (gapList: IdleGap[], bootMinutes: number | null, pricePerHour: number) =>
    chooseIdleWindow(adaptive, { gaps: gapList, bootMinutes, pricePerHour, now: NOW }).minutes;

  it.each([
    {
      gaps: MIN_GAPS_TO_JUDGE - 1,
      basis: 'fixed window until 30 idle gaps are seen (29 so far)',
      minutes: 15,
    },
    { gaps: MIN_GAPS_TO_JUDGE, basis: 'learned from 30 idle gaps over 1 day', minutes: 2 },
  ])('judges from exactly MIN_GAPS_TO_JUDGE gaps on: $gaps gaps', ({ gaps: count, basis, minutes }) => {
    expect(
      chooseIdleWindow(adaptive, {
        gaps: fresh([[0.1, count]]),
        bootMinutes: 3,
        pricePerHour: 0.79,
        now: NOW,
      }),
    ).toEqual({ minutes, policy: 'adaptive', basis });
  });

  it.each([
    // Days from the oldest gap to now, rounded up, and at least one.
    { name: 'all gaps ending now', ages: [0, 0], basis: 'learned from 30 idle gaps over 1 day' },
    { name: 'the oldest 3.5 days ago', ages: [0, 3.5], basis: 'learned from 30 idle gaps over 4 days' },
    { name: 'the oldest exactly 2 days ago', ages: [2, 1], basis: 'learned from 30 idle gaps over 2 days' },
  ])('says over how many days: $name', ({ ages, basis }) => {
    const gapList = Array.from({ length: 30 }, (_, i) => ({
      minutes: 0.1,
      endedAt: NOW - ages[i % 2] * DAY,
    }));
    expect(
      chooseIdleWindow(adaptive, { gaps: gapList, bootMinutes: 3, pricePerHour: 0.79, now: NOW }).basis,
    ).toBe(basis);
  });

  // 200 short gaps, one 8-minute gap and 100 long ones. A 2-minute window starts the 8-minute gap cold
  // (allowed: 1 is under 2% of 100) and saves 6 minutes on each long gap: it wins while a cold start costs
  // under 606 billed minutes. A cold start is boot + boot × $0.10 / (price / 60) minutes.
  it.each([
    { price: 0.029, boot: 3, minutes: 8 }, // 3 + 18 / 0.029 = 624 billed minutes
    { price: 0.03, boot: 3, minutes: 2 }, // 603
    { price: 0.029, boot: null, minutes: 8 }, // no boot measured: 3 minutes assumed
    { price: 0.03, boot: null, minutes: 2 },
    { price: 0.03, boot: 5, minutes: 8 }, // 5 + 30 / 0.03 = 1005
    { price: 0.05, boot: 5, minutes: 2 }, // 605
    { price: 0.79, boot: 3, minutes: 2 },
    { price: 0, boot: 3, minutes: 8 }, // priced at the $0.01 floor, not free
  ])('a cold start weighs boot and wait against the price: $price $/h, boot $boot → $minutes', (row) => {
    const gapList = fresh([
      [0.2, 200],
      [8, 1],
      [60, 100],
    ]);
    expect(pick(gapList, row.boot, row.price)).toBe(row.minutes);
  });

  it.each([
    // Exactly 2% added cold starts is still within the share.
    { name: 'exactly 2% added cold starts', mid: 2, minutes: 2 },
    { name: 'over 2%', mid: 3, minutes: 8 },
  ])('the extra cold start share: $name → $minutes', ({ mid, minutes }) => {
    const gapList = fresh([
      [0.2, 200],
      [8, mid],
      [60, 100],
    ]);
    expect(pick(gapList, 3, 0.79)).toBe(minutes);
  });

  it('a gap exactly as long as the ceiling is covered by it, not a cold start at the ceiling', () => {
    // Nothing goes cold at the ceiling, so no shorter window may add a cold start, however cheap.
    const gapList = fresh([
      [0.2, 200],
      [15, 50],
    ]);
    expect(pick(gapList, 3, 10)).toBe(15);
  });

  it('a window covers a gap of exactly its length', () => {
    const gapList = fresh([
      [0.2, 200],
      [6, 20],
    ]);
    expect(pick(gapList, 3, 0.79)).toBe(6);
  });

  it('gaps in any order: longest-first input decides as shortest-first', () => {
    const sorted = fresh([
      [0.2, 200],
      [8, 3],
      [60, 100],
    ]);
    expect(pick([...sorted].reverse(), 3, 0.79)).toBe(8);
  });
});
