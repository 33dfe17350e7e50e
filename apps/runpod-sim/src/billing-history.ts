import { PodBill } from './billing-ledger';

/**
 * RunPod's billing history as its REST v2 reference describes it: pod charges
 * per pod per time bucket (GET /billing/pods) and the account's aggregate per
 * bucket with storage among the families (GET /billing). Charges appear only
 * after a lag, and the current bucket is in progress (it grows until it ends).
 */
export type BucketSize = 'hour' | 'day';

/** An extra charge RunPod made (admin-seeded): a leak the lifecycle model does not explain. */
export interface ExtraCharge {
  readonly podId: string;
  /** Simulated epoch ms. */
  readonly at: number;
  readonly usd: number;
}

export interface BillingQuery {
  readonly bucketSize: BucketSize;
  readonly startMs: number;
  readonly endMs: number;
  readonly podId: string | null;
}

const BUCKET_MS: Record<BucketSize, number> = { hour: 3_600_000, day: 86_400_000 };
/** Network volume storage, USD per GB per month (RunPod's list price for network volumes). */
export const STORAGE_USD_PER_GB_MONTH = 0.07;

/** Reads bucketSize, startTime (default 30 days back), endTime (default now): snapped to whole buckets. */
export function readBillingQuery(query: URLSearchParams, now: number): BillingQuery | string {
  const size = query.get('bucketSize') ?? 'day';
  if (size !== 'hour' && size !== 'day') return `bucketSize must be hour or day here, got ${size}`;
  const bucket = BUCKET_MS[size];
  const start = readTime(query.get('startTime'), now - 30 * 86_400_000);
  const end = readTime(query.get('endTime'), now);
  if (start === null || end === null) return 'startTime and endTime must be RFC 3339 times';
  if (end < start) return 'endTime is before startTime';
  return {
    bucketSize: size,
    startMs: Math.floor(start / bucket) * bucket,
    endMs: Math.ceil(end / bucket) * bucket,
    podId: query.get('podId'),
  };
}

/** One record per pod per bucket with a charge, visible up to `visibleTo` (now − lag). */
export function podBillingRecords(
  bills: readonly PodBill[],
  charges: readonly ExtraCharge[],
  query: BillingQuery,
  visibleTo: number,
): Record<string, unknown>[] {
  const bucket = BUCKET_MS[query.bucketSize];
  const records: Record<string, unknown>[] = [];
  const podIds = new Set([...bills.map((b) => b.podId), ...charges.map((c) => c.podId)]);
  for (const podId of [...podIds].sort()) {
    if (query.podId !== null && podId !== query.podId) continue;
    const bill = bills.find((b) => b.podId === podId);
    for (let t = query.startMs; t < query.endMs; t += bucket) {
      const to = Math.min(t + bucket, visibleTo);
      if (to <= t) break;
      const usd =
        usdIn(bill, t, to) +
        charges.filter((c) => c.podId === podId && c.at >= t && c.at < to).reduce((s, c) => s + c.usd, 0);
      if (usd <= 0) continue;
      const amount = round6(usd);
      records.push({
        podId,
        time: iso(t),
        gpuAmount: amount,
        cpuAmount: 0,
        diskAmount: 0,
        totalAmount: amount,
      });
    }
  }
  return records;
}

/** The aggregate per bucket: pods, storage (every volume, continuously) and the families the simulator has none of. */
export function accountBillingRecords(
  podRecords: readonly Record<string, unknown>[],
  storageGb: number,
  query: BillingQuery,
  visibleTo: number,
): Record<string, unknown>[] {
  const bucket = BUCKET_MS[query.bucketSize];
  const records: Record<string, unknown>[] = [];
  for (let t = query.startMs; t < query.endMs; t += bucket) {
    const to = Math.min(t + bucket, visibleTo);
    if (to <= t) break;
    const pods = podRecords.filter((r) => r.time === iso(t)).reduce((s, r) => s + Number(r.totalAmount), 0);
    const storage = (storageGb * STORAGE_USD_PER_GB_MONTH * (to - t)) / (30 * 86_400_000);
    records.push({
      time: iso(t),
      totalAmount: round6(pods + storage),
      podAmount: round6(pods),
      serverlessAmount: 0,
      storageAmount: round6(storage),
      publicEndpointAmount: 0,
      clusterAmount: 0,
    });
  }
  return records;
}

export function billingMetadata(
  query: BillingQuery,
  records: readonly Record<string, unknown>[],
): Record<string, unknown> {
  return {
    startTime: iso(query.startMs),
    endTime: iso(query.endMs),
    bucketSize: query.bucketSize,
    podId: query.podId,
    recordCount: records.length,
    totalAmount: round6(records.reduce((s, r) => s + Number(r.totalAmount), 0)),
  };
}

function usdIn(bill: PodBill | undefined, from: number, to: number): number {
  if (bill === undefined) return 0;
  let ms = 0;
  for (const interval of bill.intervals) {
    const a = Math.max(interval.from, from);
    const b = Math.min(interval.to ?? to, to);
    if (b > a) ms += b - a;
  }
  return (bill.pricePerHour * ms) / 3_600_000;
}

function readTime(raw: string | null, fallback: number): number | null {
  if (raw === null) return fallback;
  const ms = Date.parse(raw);
  return Number.isFinite(ms) ? ms : null;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
