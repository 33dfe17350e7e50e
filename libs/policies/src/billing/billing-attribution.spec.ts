import { podRuns } from '../history/pod-runs';
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
  ])('%s', (_rule, run, asOf, lagMs, billed) => {
    const result = runBilledUsd(run, [first, second], buckets, asOf, lagMs);
    if (billed === null) expect(result).toBeNull();
    else expect(result).toBeCloseTo(billed, 6);
  });

  it("nothing is attributed when the pod's billing was never read", () => {
    expect(runBilledUsd(first, [first], null, T0 + 2 * H, 0)).toBeNull();
  });
});
