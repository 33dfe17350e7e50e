import { podRuns, type PodRun } from '../history/pod-runs';
import {
  providerSpendOfDay,
  recordedPodsOf,
  runBilledUsd,
  utcDayStart,
  type BillableRun,
} from './billing-attribution';

const H = 3_600_000;
const T0 = Date.parse('2026-12-01T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('billing attribution', () => {
  it('the UTC day starts at midnight', () => {
    expect(iso(utcDayStart(T0 + 5 * 60_000))).toBe('2026-12-01T00:00:00.000Z');
  });

  it("provider spend of a day counts only that day's buckets", () => {
    const day = utcDayStart(T0);
    const buckets = [
      { podId: 'a', startMs: day - H, usd: 5 },
      { podId: 'a', startMs: day, usd: 1 },
      { podId: 'b', startMs: T0, usd: 0.5 },
      { podId: 'b', startMs: day + 24 * H, usd: 7 },
    ];
    expect(providerSpendOfDay(buckets, day)).toBeCloseTo(1.5, 9);
  });

  it.each([NaN, Infinity, -Infinity])('provider spend of a day skips a bucket of %p dollars', (usd) => {
    const day = utcDayStart(T0);
    const buckets = [
      { podId: 'a', startMs: T0, usd },
      { podId: 'a', startMs: T0 + H, usd: 0.25 },
    ];
    expect(providerSpendOfDay(buckets, day)).toBe(0.25);
  });

  it('recorded pods come from runs with a recorded start', () => {
    const runs = podRuns(
      {
        actions: [
          {
            at: iso(T0),
            action: 'Create',
            podId: 'p1',
            gpuId: 'g',
            pricePerHour: 0.49,
            ok: true,
            trigger: 'wake',
          },
          {
            at: iso(T0 + H),
            action: 'Stop',
            podId: 'p1',
            gpuId: 'g',
            pricePerHour: 0.49,
            ok: true,
            trigger: 'idle',
          },
          {
            at: iso(T0 + 2 * H),
            action: 'Stop',
            podId: 'p2',
            gpuId: 'g',
            pricePerHour: 0.49,
            ok: true,
            trigger: 'idle',
          },
        ],
        ready: [],
        wakes: [],
      },
      T0 + 3 * H,
      50,
    );
    expect(recordedPodsOf('qwen', runs)).toEqual([
      { podId: 'p1', podName: 'qwen', pricePerHour: 0.49, spans: [{ fromMs: T0, toMs: T0 + H }] },
    ]);
  });

  const run = (podId: string, startedAt: number | null, stoppedAt: number | null, price: number | null) =>
    ({
      podId,
      gpuId: 'g',
      pricePerHour: price,
      startedAt: startedAt === null ? null : iso(startedAt),
      readyAt: null,
      stoppedAt: stoppedAt === null ? null : iso(stoppedAt),
      uptimeSeconds: null,
      timeToReadySeconds: null,
      usableSeconds: null,
      stopTrigger: null,
      estimatedCostUsd: null,
    }) satisfies PodRun;

  it("a pod's runs are one recorded pod: the first known price, every span in order, a running one open", () => {
    const runs = [
      run('p1', T0, T0 + H, null),
      run('p2', T0 + H, T0 + 2 * H, 0.2),
      run('p1', T0 + 2 * H, T0 + 3 * H, 0.49),
      run('p1', null, T0 + 4 * H, 0.99),
      run('p1', T0 + 5 * H, null, 0.79),
    ];
    expect(recordedPodsOf('qwen', runs)).toEqual([
      {
        podId: 'p1',
        podName: 'qwen',
        pricePerHour: 0.49,
        spans: [
          { fromMs: T0, toMs: T0 + H },
          { fromMs: T0 + 2 * H, toMs: T0 + 3 * H },
          { fromMs: T0 + 5 * H, toMs: null },
        ],
      },
      { podId: 'p2', podName: 'qwen', pricePerHour: 0.2, spans: [{ fromMs: T0 + H, toMs: T0 + 2 * H }] },
    ]);
  });

  it('no runs, no recorded pods', () => {
    expect(recordedPodsOf('qwen', [])).toEqual([]);
  });

  const first: BillableRun = { podId: 'p', startedAt: iso(T0), stoppedAt: iso(T0 + 20 * 60_000) };
  const second: BillableRun = {
    podId: 'p',
    startedAt: iso(T0 + 30 * 60_000),
    stoppedAt: iso(T0 + 70 * 60_000),
  };
  const buckets = [
    { podId: 'p', startMs: T0, usd: 0.5 },
    { podId: 'p', startMs: T0 + H, usd: 0.1 },
    { podId: 'other', startMs: T0, usd: 9 },
  ];

  it.each<[string, BillableRun, number, number, number | null]>([
    ['a run sharing an hour with another of its pod gets its share', first, T0 + 2 * H, 0, 0.2],
    ['the later run gets the rest of the shared hour and its own', second, T0 + 2 * H, 0, 0.4],
    ['not before RunPod reported past the stop (lag)', second, T0 + 75 * 60_000, 10 * 60_000, null],
    ['not while the run is up', { podId: 'p', startedAt: iso(T0), stoppedAt: null }, T0 + 2 * H, 0, null],
    ['exactly the lag after the stop is reported', second, T0 + 80 * 60_000, 10 * 60_000, 0.4],
    [
      'not without a recorded start',
      { podId: 'p', startedAt: null, stoppedAt: iso(T0) },
      T0 + 2 * H,
      0,
      null,
    ],
  ])('%s', (_rule, billable, asOf, lagMs, billed) => {
    const result = runBilledUsd(billable, [first, second], buckets, asOf, lagMs);
    if (billed === null) expect(result).toBeNull();
    else expect(result).toBeCloseTo(billed, 6);
  });

  it.each<[string, BillableRun[], number]>([
    // 0.5 × 30/50 of the first hour, 0.1 × 10/40 of the second (the running run holds 30 minutes of it).
    [
      'a run still up shares the hour up to asOf',
      [first, second, { podId: 'p', startedAt: iso(T0 + 90 * 60_000), stoppedAt: null }],
      0.325,
    ],
    [
      "another pod's run in the same hour takes no share",
      [first, second, { podId: 'q', startedAt: iso(T0), stoppedAt: iso(T0 + 2 * H) }],
      0.4,
    ],
    [
      'a run without a recorded start takes no share',
      [first, second, { podId: 'p', startedAt: null, stoppedAt: iso(T0 + 50 * 60_000) }],
      0.4,
    ],
    // Never a division by zero: a caller that leaves the run out of its pod's runs gets nothing, not Infinity.
    ['a run left out of the runs shared among is billed nothing', [], 0],
  ])('%s', (_rule, runs, billed) => {
    expect(runBilledUsd(second, runs, buckets, T0 + 2 * H, 0)).toBeCloseTo(billed, 6);
  });

  it("a bucket of no known amount in another run's hour leaves this run's bill alone", () => {
    const later: BillableRun = { podId: 'p', startedAt: iso(T0 + 3 * H), stoppedAt: iso(T0 + 3.5 * H) };
    const withUnknown = [...buckets, { podId: 'p', startMs: T0 + 3 * H, usd: NaN }];
    expect(runBilledUsd(second, [first, second, later], withUnknown, T0 + 4 * H, 0)).toBeCloseTo(0.4, 6);
  });

  it('the bill is rounded to a millionth of a dollar', () => {
    const thirds = [{ podId: 'p', startMs: T0, usd: 1 }];
    const third: BillableRun = { podId: 'p', startedAt: iso(T0), stoppedAt: iso(T0 + 20 * 60_000) };
    const rest: BillableRun = { podId: 'p', startedAt: iso(T0 + 20 * 60_000), stoppedAt: iso(T0 + H) };
    expect(runBilledUsd(third, [third, rest], thirds, T0 + 2 * H, 0)).toBe(0.333333);
  });

  it("nothing is attributed when the pod's billing was never read", () => {
    expect(runBilledUsd(first, [first], null, T0 + 2 * H, 0)).toBeNull();
  });
});
