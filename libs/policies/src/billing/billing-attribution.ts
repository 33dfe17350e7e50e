import type { PodRun } from '../history/pod-runs';
import type { BilledBucket, RecordedPod } from './billing-mismatch';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The UTC midnight a time falls after (the budget's day). */
export function utcDayStart(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS;
}

/** Provider-attributed spend of one UTC day: every bucket of the pods we attribute that starts in it. */
export function providerSpendOfDay(buckets: readonly BilledBucket[], dayStartMs: number): number {
  return buckets
    .filter((bucket) => bucket.startMs >= dayStartMs && bucket.startMs < dayStartMs + DAY_MS)
    .reduce((sum, bucket) => sum + (Number.isFinite(bucket.usd) ? bucket.usd : 0), 0);
}

/** Recorded pods from runs: each run with a recorded start is a span of its pod's life. */
export function recordedPodsOf(podName: string, runs: readonly PodRun[]): RecordedPod[] {
  const byPod = new Map<string, { price: number | null; spans: { fromMs: number; toMs: number | null }[] }>();
  for (const run of runs) {
    if (run.startedAt === null) continue;
    const entry = byPod.get(run.podId) ?? { price: null, spans: [] };
    entry.price = entry.price ?? run.pricePerHour;
    entry.spans.push({
      fromMs: Date.parse(run.startedAt),
      toMs: run.stoppedAt === null ? null : Date.parse(run.stoppedAt),
    });
    byPod.set(run.podId, entry);
  }
  return [...byPod].map(([podId, entry]) => ({
    podId,
    podName,
    pricePerHour: entry.price,
    spans: entry.spans,
  }));
}

/** A run as billing attribution needs it. */
export interface BillableRun {
  readonly podId: string;
  readonly startedAt: string | null;
  readonly stoppedAt: string | null;
}

/**
 * What RunPod billed for one run: its pod's hourly buckets shared among that pod's runs by overlap (a pod
 * started twice in an hour shares it). null until the run stopped more than the billing lag before `asOf`,
 * or when its pod's billing was not read.
 */
export function runBilledUsd(
  run: BillableRun,
  podRuns: readonly BillableRun[],
  buckets: readonly BilledBucket[] | null,
  asOf: number,
  lagMs: number,
): number | null {
  if (buckets === null || run.startedAt === null || run.stoppedAt === null) return null;
  const stoppedAt = Date.parse(run.stoppedAt);
  if (asOf - lagMs < stoppedAt) return null;
  let usd = 0;
  for (const bucket of buckets) {
    if (bucket.podId !== run.podId) continue;
    const own = overlapMs(run, bucket.startMs, asOf);
    if (own === 0) continue;
    const all = podRuns
      .filter((other) => other.podId === run.podId)
      .reduce((sum, other) => sum + overlapMs(other, bucket.startMs, asOf), 0);
    usd += all > 0 ? (bucket.usd * own) / all : 0;
  }
  return Math.round(usd * 1e6) / 1e6;
}

function overlapMs(run: BillableRun, bucketStart: number, asOf: number): number {
  if (run.startedAt === null) return 0;
  const from = Math.max(Date.parse(run.startedAt), bucketStart);
  const to = Math.min(run.stoppedAt === null ? asOf : Date.parse(run.stoppedAt), bucketStart + HOUR_MS);
  return Math.max(0, to - from);
}
