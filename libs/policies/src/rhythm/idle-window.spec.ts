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
