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
