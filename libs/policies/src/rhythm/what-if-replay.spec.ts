import type { UsageTrace } from './usage-trace';
import { replayTrace, type ReplaySettings } from './what-if-replay';

const MIN = 60_000;
const T0 = Date.parse('2026-11-02T10:00:00Z');
const settings: ReplaySettings = {
  idleMinutes: 15,
  checkSeconds: 60,
  minMinutes: 2,
  maxMinutes: 15,
  prewake: true,
  prewakeMaxPerDay: 4,
  retentionDays: 28,
  bootGraceMinutes: 20,
  maxRuntimeMinutes: 360,
};

function trace(requests: [minute: number, seconds: number][], bootMinutes = 3): UsageTrace {
  return {
    bootMinutes,
    pricePerHour: 0.6,
    requests: requests.map(([minute, seconds]) => ({
      at: new Date(T0 + minute * MIN).toISOString(),
      seconds,
    })),
  };
}

describe('replayTrace (fixed window)', () => {
  it('a request on a stopped pod wakes it, waits the boot and bills until the idle stop', () => {
    const result = replayTrace(trace([[0, 30]]), 'fixed', settings);
    expect(result.coldStarts).toBe(1);
    expect(result.waitMinutes).toBe(3);
    // Ready at 3:00 (tick at 3 reads the request running: Busy), then 15 idle ticks: stopped at 19:00.
    expect(result.stops).toEqual([{ at: T0 + 19 * MIN, reason: 'idle' }]);
    expect(result.billedMinutes).toBe(19);
    expect(result.costUsd).toBe(0.19);
    expect(result.stopsDuringUse).toBe(0);
    expect(result.windowMinutes).toEqual({ min: 15, median: 15, max: 15 });
  });

  it('a request within the window keeps the pod up and starts nothing cold', () => {
    const result = replayTrace(
      trace([
        [0, 30],
        [10, 30],
      ]),
      'fixed',
      settings,
    );
    expect(result.coldStarts).toBe(1);
    expect(result.stops).toEqual([{ at: T0 + 26 * MIN, reason: 'idle' }]);
  });

  it('a request after the stop starts cold again', () => {
    const result = replayTrace(
      trace([
        [0, 30],
        [30, 30],
      ]),
      'fixed',
      settings,
    );
    expect(result.coldStarts).toBe(2);
    expect(result.waitMinutes).toBe(6);
    expect(result.stops.map((stop) => stop.at)).toEqual([T0 + 19 * MIN, T0 + 49 * MIN]);
    expect(result.billedMinutes).toBe(38);
  });

  it('requests during the boot wait for it but start nothing else cold', () => {
    const result = replayTrace(
      trace([
        [0, 10],
        [1, 10],
        [2.5, 10],
      ]),
      'fixed',
      settings,
    );
    expect(result.coldStarts).toBe(1);
    expect(result.waitMinutes).toBeCloseTo(3 + 2 + 0.5, 5);
  });

  it('a long request is never stopped under: Busy holds the streak', () => {
    const result = replayTrace(trace([[0, 40 * 60]]), 'fixed', settings);
    expect(result.stopsDuringUse).toBe(0);
    expect(result.stops[0].at).toBeGreaterThanOrEqual(T0 + (3 + 40 + 15) * MIN);
  });

  it('the runtime cap stops the pod even in use, and the replay counts it', () => {
    const result = replayTrace(trace([[0, 120 * 60]]), 'fixed', { ...settings, maxRuntimeMinutes: 60 });
    expect(result.stops[0]).toEqual({ at: T0 + 60 * MIN, reason: 'runtime-cap' });
    expect(result.stopsDuringUse).toBe(1);
  });

  it('an empty trace bills nothing', () => {
    expect(replayTrace(trace([]), 'fixed', settings)).toMatchObject({
      billedMinutes: 0,
      coldStarts: 0,
      stops: [],
    });
  });
});

describe('replayTrace (adaptive)', () => {
  it('keeps the fixed window until it has seen enough gaps', () => {
    const fixed = replayTrace(
      trace([
        [0, 5],
        [1, 5],
        [40, 5],
      ]),
      'fixed',
      settings,
    );
    const adaptive = replayTrace(
      trace([
        [0, 5],
        [1, 5],
        [40, 5],
      ]),
      'adaptive',
      settings,
    );
    expect(adaptive.stops).toEqual(fixed.stops);
  });

  it('learns a short window from bursts and stops sooner after each', () => {
    const requests: [number, number][] = [];
    for (let burst = 0; burst < 60; burst += 1) {
      for (let i = 0; i < 4; i += 1) requests.push([burst * 45 + i * 0.2, 5]);
    }
    const fixed = replayTrace(trace(requests), 'fixed', settings);
    const adaptive = replayTrace(trace(requests), 'adaptive', settings);
    expect(adaptive.coldStarts).toBe(fixed.coldStarts);
    expect(adaptive.stopsDuringUse).toBe(0);
    // A burst's requests all wait out the cold boot, so each burst shows one gap: the window is
    // learned after 30 bursts; from then on a burst (ready at +3, busy until 3:05) stops at +6, not +19.
    expect(fixed.stops[59].at).toBe(T0 + (59 * 45 + 19) * MIN);
    expect(adaptive.stops.slice(0, 30).map((stop) => stop.at)).toEqual(
      fixed.stops.slice(0, 30).map((stop) => stop.at),
    );
    expect(adaptive.stops[59]).toEqual({ at: T0 + (59 * 45 + 6) * MIN, reason: 'idle' });
    expect(adaptive.windowMinutes.min).toBe(2);
    expect(adaptive.billedMinutes).toBeLessThan(fixed.billedMinutes * 0.75);
  });
});

/** A replay's stops as [minutes after T0, reason], to read a timeline at a glance. */
function stopMinutes(result: { stops: readonly { at: number; reason: string }[] }, from = T0) {
  return result.stops.map((stop) => [(stop.at - from) / MIN, stop.reason]);
}

describe('replayTrace (a use ends when its request is served)', () => {
  it('learns its window from the gaps after served requests: three 200 s requests every 4 minutes', () => {
    // Each request ends 3:20 after it starts, so the learned gaps are 0:40 long and the window drops to 2.
    const requests: [number, number][] = [];
    for (let burst = 0; burst < 50; burst += 1) {
      for (let i = 0; i < 3; i += 1) requests.push([burst * 50 + i * 4, 200]);
    }
    const result = replayTrace(trace(requests), 'adaptive', {
      ...settings,
      bootGraceMinutes: 40,
      maxRuntimeMinutes: 0,
    });
    expect(result).toMatchObject({ billedMinutes: 895, windowMinutes: { min: 2, median: 2, max: 15 } });
  });
});

describe('replayTrace (exact summary)', () => {
  it('an empty trace reports zero everywhere', () => {
    expect(replayTrace(trace([]), 'adaptive', settings)).toEqual({
      policy: 'adaptive',
      billedMinutes: 0,
      costUsd: 0,
      coldStarts: 0,
      waitMinutes: 0,
      stopsDuringUse: 0,
      prewakes: 0,
      prewakeHits: 0,
      windowMinutes: { min: 0, median: 0, max: 0 },
      stops: [],
    });
  });

  it('a single request: every field of the summary', () => {
    expect(replayTrace(trace([[0, 30]]), 'fixed', settings)).toEqual({
      policy: 'fixed',
      billedMinutes: 19,
      costUsd: 0.19,
      coldStarts: 1,
      waitMinutes: 3,
      stopsDuringUse: 0,
      prewakes: 0,
      prewakeHits: 0,
      windowMinutes: { min: 15, median: 15, max: 15 },
      stops: [{ at: T0 + 19 * MIN, reason: 'idle' }],
    });
  });

  it('rounds the cost and minutes to cents', () => {
    // 19 billed minutes at 0.79 USD/h is 0.25016… USD.
    const result = replayTrace({ ...trace([[0, 30]]), pricePerHour: 0.79 }, 'fixed', settings);
    expect(result.costUsd).toBe(0.25);
    // A boot of 1/3 minute: waits and bills round to two decimals.
    const short = replayTrace(trace([[0, 0]], 1 / 3), 'fixed', settings);
    expect(short).toMatchObject({ waitMinutes: 0.33, billedMinutes: 16, costUsd: 0.16 });
  });
});

describe('replayTrace (ticks and the busy interval)', () => {
  // Work in (now - tick, now] reads Busy; the idle streak counts from the first tick that reads none.
  it.each<[string, [number, number][], number, number]>([
    // Ready at 3:00, a 0 s request there: Busy at 3, idle from 4, the 15th idle tick at 18.
    ['a zero-second request ending at the ready tick', [[0, 0]], 18, 18],
    // Ends at 3:30: still Busy at 4 (it ran in (3, 4]), idle from 5.
    ['a request ending half a tick after ready', [[0, 30]], 19, 19],
    // Ends exactly at 4:00: Busy at 4 (it ran in (3, 4]), idle from 5.
    ['a request ending exactly on the next tick', [[0, 60]], 19, 19],
    // Ends at 43: Busy until 43, idle from 44.
    ['a 40-minute request', [[0, 40 * 60]], 58, 58],
  ])('%s: stopped on the 15th idle tick after it', (_name, requests, stopAt, billed) => {
    const result = replayTrace(trace(requests), 'fixed', settings);
    expect(stopMinutes(result)).toEqual([[stopAt, 'idle']]);
    expect(result.billedMinutes).toBe(billed);
  });

  it('ticks on the check grid: a request between ticks is seen at the next one, and bills from its arrival', () => {
    // Arrives 0:30, wakes then, ready at 3:30; the ticks stay on whole minutes: Busy at 4, idle 5..19.
    const result = replayTrace(trace([[0.5, 30]]), 'fixed', settings);
    expect(stopMinutes(result)).toEqual([[19, 'idle']]);
    expect(result.billedMinutes).toBe(18.5);
    expect(result.waitMinutes).toBe(3);
  });

  it('replays requests in time order, whatever the order of the trace', () => {
    const sorted = replayTrace(
      trace([
        [0, 30],
        [30, 30],
        [31, 30],
      ]),
      'fixed',
      settings,
    );
    const shuffled = replayTrace(
      trace([
        [31, 30],
        [0, 30],
        [30, 30],
      ]),
      'fixed',
      settings,
    );
    expect(shuffled).toEqual(sorted);
    expect(stopMinutes(sorted)).toEqual([
      [19, 'idle'],
      [49, 'idle'],
    ]);
    expect(sorted).toMatchObject({ coldStarts: 2, waitMinutes: 3 + 3 + 2, billedMinutes: 38 });
  });

  it('a coarser check interval counts the window in its ticks', () => {
    // Tick 5 min: the request (0, 60 s) is seen at 0, ready at 3 is first seen at 5 (Busy: it ran in (0, 5]),
    // idle 10, 15, 20: the third idle tick (15 min) stops it at 20.
    const result = replayTrace(trace([[0, 60]]), 'fixed', { ...settings, checkSeconds: 300 });
    expect(stopMinutes(result)).toEqual([[20, 'idle']]);
  });
});

describe('replayTrace (guards other than idle)', () => {
  it('a boot longer than the boot grace is stopped while a request waits for it', () => {
    // Boot 5 min, grace 2 min: Booting at 0 and 1, the second tick stops it.
    const result = replayTrace(trace([[0, 30]], 5), 'fixed', { ...settings, bootGraceMinutes: 2 });
    expect(result).toMatchObject({
      billedMinutes: 1,
      coldStarts: 1,
      waitMinutes: 5,
      stopsDuringUse: 1,
      windowMinutes: { min: 0, median: 0, max: 0 },
    });
    expect(stopMinutes(result)).toEqual([[1, 'boot-grace']]);
  });

  it('the runtime cap counts a stop during use only for a request still running', () => {
    // A: ready at 3, runs until 59.5 (in the last tick, not at the stop). B: arrives at 60, the cap's tick.
    const result = replayTrace(
      trace([
        [0, 56.5 * 60],
        [60, 60],
      ]),
      'fixed',
      { ...settings, maxRuntimeMinutes: 60 },
    );
    expect(stopMinutes(result)).toEqual([[60, 'runtime-cap']]);
    expect(result.stopsDuringUse).toBe(1);
  });

  it.each<[string, number, number]>([
    // A request ending exactly at the cap's tick is done, not stopped under.
    ['ending at the stop', 57 * 60, 0],
    ['ending just after the stop', 57 * 60 + 1, 1],
  ])('the runtime cap on a request %s: counted as a stop during use or not', (_name, seconds, during) => {
    const result = replayTrace(trace([[0, seconds]]), 'fixed', { ...settings, maxRuntimeMinutes: 60 });
    expect(stopMinutes(result)).toEqual([[60, 'runtime-cap']]);
    expect(result.stopsDuringUse).toBe(during);
  });

  it('a stop is the Down edge: the next wake starts a new runtime-cap clock', () => {
    // Stopped idle at 18; the next request (18:30) wakes a new boot whose cap would fall at 49, after its idle
    // stop at 37. Kept from the first boot (up since 0), the 30-minute cap would stop it at 30.
    const result = replayTrace(
      trace([
        [0, 0],
        [18.5, 0],
      ]),
      'fixed',
      { ...settings, maxRuntimeMinutes: 30 },
    );
    expect(stopMinutes(result)).toEqual([
      [18, 'idle'],
      [37, 'idle'],
    ]);
    expect(result).toMatchObject({ coldStarts: 2, billedMinutes: 18 + 18.5 });
  });

  it('the replay runs until a day after the trace: a stop on the last tick of that horizon still counts', () => {
    // Hourly ticks, no cap: boot 30 min and a 30-minute request end the trace at 1:00; the horizon is a day later
    // (25:00). Ready at the 1:00 tick (Busy), idle from 2:00, a 24-hour window stops it at exactly 25:00.
    const hourly: ReplaySettings = {
      ...settings,
      checkSeconds: 3600,
      idleMinutes: 24 * 60,
      maxMinutes: 24 * 60,
      bootGraceMinutes: 0,
      maxRuntimeMinutes: 0,
    };
    // The longest request sets the end, not the last one: a short last request at the same minute.
    const result = replayTrace(
      trace(
        [
          [0, 30 * 60],
          [0, 1],
        ],
        30,
      ),
      'fixed',
      hourly,
    );
    expect(stopMinutes(result)).toEqual([[25 * 60, 'idle']]);
    expect(result.billedMinutes).toBe(25 * 60);
  });
});

describe('replayTrace (pre-wake)', () => {
  const DAY = 24 * 60;
  const MONDAY = Date.parse('2026-11-02T00:00:00Z');
  /** Requests as [minute after Monday 00:00 UTC, seconds], with a 2-minute boot. */
  const week = (requests: [number, number][]): UsageTrace => ({
    bootMinutes: 2,
    pricePerHour: 0.6,
    requests: requests.map(([minute, seconds]) => ({
      at: new Date(MONDAY + minute * MIN).toISOString(),
      seconds,
    })),
  });
  // One session a weekday at 09:00 for a week: by Friday the plan wakes the pod at 08:57 on weekdays
  // (the 09:00 slot, less the measured 2-minute boot and one tick).
  const weekOfNine: [number, number][] = [0, 1, 2, 3, 4].map((day) => [day * DAY + 540, 5]);
  const coldWeek = [558, 1998, 3438, 4878, 6318].map((at) => [at, 'idle']);

  it('pre-wakes for the next Monday session: the person meets a ready pod and is counted a hit once', () => {
    // Monday: pre-woken 08:57, ready 08:59 (window of the slot: 3 min), used at 09:00 and 09:02, stopped
    // 15 idle ticks after 09:03. Tuesday: a cold start at 08:50 is up at 08:57: no second wake over it.
    const result = replayTrace(
      week([...weekOfNine, [7 * DAY + 540, 5], [7 * DAY + 542, 5], [8 * DAY + 530, 600]]),
      'adaptive',
      settings,
    );
    expect({ ...result, stops: stopMinutes(result, MONDAY) }).toEqual({
      policy: 'adaptive',
      billedMinutes: 138,
      costUsd: 1.38,
      coldStarts: 6,
      waitMinutes: 12,
      stopsDuringUse: 0,
      prewakes: 1,
      prewakeHits: 1,
      windowMinutes: { min: 3, median: 15, max: 15 },
      stops: [...coldWeek, [7 * DAY + 558, 'idle'], [8 * DAY + 557, 'idle']],
    });
  });

  it('an unused pre-wake stops after its slot, and the late request starts cold', () => {
    // Pre-woken 08:57, ready 08:59, idle 08:59..09:01: the slot's 3-minute window stops it at 09:01.
    const result = replayTrace(week([...weekOfNine, [7 * DAY + 660, 5]]), 'adaptive', settings);
    expect({ ...result, stops: stopMinutes(result, MONDAY) }).toEqual({
      policy: 'adaptive',
      billedMinutes: 112,
      costUsd: 1.12,
      coldStarts: 6,
      waitMinutes: 12,
      stopsDuringUse: 0,
      prewakes: 1,
      prewakeHits: 0,
      windowMinutes: { min: 3, median: 15, max: 15 },
      stops: [...coldWeek, [7 * DAY + 541, 'idle'], [7 * DAY + 678, 'idle']],
    });
  });

  it('counts pre-wakes per UTC day of the wake: a second one that day is refused', () => {
    // Weekend sessions at 09:00 (wake 08:57 that day), weekday sessions at 00:01 (wake 23:58 the day before).
    // A Sunday holds both wakes; with at most one a day, Sunday's 23:58 wake for Monday is refused.
    const SATURDAY = 5 * DAY;
    const weekend = [0, 1, 7, 8, 14, 15].map((day): [number, number] => [SATURDAY + day * DAY + 540, 5]);
    const weekdays = [2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 16].map((day): [number, number] => [
      SATURDAY + day * DAY + 1,
      5,
    ]);
    const result = replayTrace(week([...weekend, ...weekdays]), 'adaptive', {
      ...settings,
      prewakeMaxPerDay: 1,
    });
    // Pre-woken: Sunday 15 23:58 to Thursday 19 23:58 (weekdays, learned by Friday 13) and Sunday 22 08:57 (the
    // weekend slot, learned on its fifth day, Saturday 21). Monday 23 00:01 starts cold and stops at 00:19.
    expect(result).toMatchObject({ prewakes: 6, prewakeHits: 6, coldStarts: 11, stopsDuringUse: 0 });
    expect(stopMinutes(result, MONDAY).at(-1)).toEqual([SATURDAY + 16 * DAY + 19, 'idle']);
  });

  it.each<[string, number, number]>([
    // Sunday 20:00, a long request the 60-minute cap stops at 21:00; the trace ends when it would have.
    ['ending 08:56 Monday, before the 08:57 pre-wake: the replay stops there', 774, 0],
    ['ending 08:57 Monday, at the pre-wake: it still runs', 775, 1],
  ])('after a cap stop, pre-wakes run until the trace ends: %s', (_name, minutes, prewakes) => {
    const result = replayTrace(week([...weekOfNine, [6 * DAY + 1200, minutes * 60]]), 'adaptive', {
      ...settings,
      maxRuntimeMinutes: 60,
    });
    expect(result).toMatchObject({ prewakes, stopsDuringUse: 1 });
    expect(stopMinutes(result, MONDAY)[5]).toEqual([6 * DAY + 1260, 'runtime-cap']);
  });

  it.each<[string, 'fixed' | 'adaptive', boolean]>([
    ['the fixed policy', 'fixed', true],
    ['pre-wake switched off', 'adaptive', false],
  ])('%s never pre-wakes', (_name, policy, prewake) => {
    const result = replayTrace(week([...weekOfNine, [7 * DAY + 540, 5]]), policy, { ...settings, prewake });
    expect(result).toMatchObject({ prewakes: 0, prewakeHits: 0, coldStarts: 6 });
  });
});

describe('replayTrace: the horizon', () => {
  // 2026-11-01 00:00 UTC lies on the two-day tick grid: a request there is seen on its own tick.
  const ON_GRID = -(24 + 10) * 60;
  const twoDays: ReplaySettings = { ...settings, checkSeconds: 2 * 24 * 3600, bootGraceMinutes: 0 };

  it('a pod still up when the horizon passes bills to the horizon: the longest request sets it', () => {
    // Seen booting at 0 (no boot grace); the next tick (48 h) is past the horizon, 3 + 0.5 + (360 + 1440) min on.
    const result = replayTrace(
      trace([
        [ON_GRID, 30],
        [ON_GRID, 1],
      ]),
      'fixed',
      twoDays,
    );
    expect(result).toMatchObject({ billedMinutes: 3 + 0.5 + 360 + 1440, coldStarts: 1, stops: [] });
  });

  it('a tick exactly on the horizon still runs: the stop there counts', () => {
    // No boot, a 0 s request: Busy at 0; the horizon is 0 + (1440 + 1440) minutes, the next tick.
    const result = replayTrace(trace([[ON_GRID, 0]], 0), 'fixed', {
      ...twoDays,
      idleMinutes: 1440,
      maxMinutes: 1440,
      maxRuntimeMinutes: 0,
    });
    expect(stopMinutes(result, T0 + ON_GRID * MIN)).toEqual([[2880, 'idle']]);
    expect(result.billedMinutes).toBe(2880);
  });
});

describe('replayTrace: a window longer than a day, with no runtime cap', () => {
  it('still replays to the idle stop and bills every minute up', () => {
    const long = { ...settings, idleMinutes: 1500, maxMinutes: 1500, maxRuntimeMinutes: 0 };
    const result = replayTrace(trace([[0, 30]]), 'fixed', long);
    // Ready at 3:00 (Busy at that tick), then 1,500 idle ticks.
    expect(result.stops).toEqual([{ at: T0 + 1504 * MIN, reason: 'idle' }]);
    expect(result.billedMinutes).toBe(1504);
  });
});
