import type { BilledBucket } from '@podwarden/policies';
import type { ExchangeOutcome } from './http-exchange';
import {
  bareOrWrappedArray,
  finiteNumberField,
  isRecord,
  nonBlankStringField,
  parseJson,
} from './json-reading';

/** Pod billing by hour: every record read, or why none could be (never "nothing billed"). */
export type PodBillingRead =
  | { readonly kind: 'read'; readonly buckets: readonly BilledBucket[] }
  | { readonly kind: 'unreadable'; readonly reason: string };

/** One bucket of the account's aggregate billing (all resource families). */
export interface AccountBillingBucket {
  readonly startMs: number;
  readonly totalUsd: number | null;
  /** Network volume storage, which bills while every pod is stopped. */
  readonly storageUsd: number | null;
}

export type AccountBillingRead =
  | { readonly kind: 'read'; readonly buckets: readonly AccountBillingBucket[] }
  | { readonly kind: 'unreadable'; readonly reason: string };

// Field names as far as RunPod's reference names them (see docs/simulator.md); the
// older spellings (v1 `amount`, `time`) are read too.
const TOTAL_KEYS = ['totalAmount', 'amount', 'total'];
const TIME_KEYS = ['time', 'startTime', 'bucketStart'];
const STORAGE_KEYS = ['storageAmount', 'storage', 'networkVolumeAmount'];

/** Shapes GET /billing/pods. A record we cannot attribute or price makes the whole read unreadable. */
export function podBillingFromOutcome(outcome: ExchangeOutcome, askedPodId: string | null): PodBillingRead {
  const records = recordsOf(outcome);
  if (!records.ok) return { kind: 'unreadable', reason: records.reason };
  const buckets: BilledBucket[] = [];
  for (const record of records.value) {
    if (!isRecord(record)) return { kind: 'unreadable', reason: 'billing record is not an object' };
    const podId = nonBlankStringField(record, 'podId') ?? askedPodId;
    const startMs = timeOf(record);
    const usd = firstNumber(record, TOTAL_KEYS);
    if (podId === null || startMs === null || usd === null) {
      // A record we cannot attribute may be exactly the leak: fail the read, never drop it.
      return { kind: 'unreadable', reason: 'billing record without podId, time or amount' };
    }
    buckets.push({ podId, startMs, usd });
  }
  return { kind: 'read', buckets };
}

/** Shapes GET /billing (the aggregate of every family per bucket). */
export function accountBillingFromOutcome(outcome: ExchangeOutcome): AccountBillingRead {
  const records = recordsOf(outcome);
  if (!records.ok) return { kind: 'unreadable', reason: records.reason };
  const buckets: AccountBillingBucket[] = [];
  for (const record of records.value) {
    const startMs = isRecord(record) ? timeOf(record) : null;
    if (!isRecord(record) || startMs === null) {
      return { kind: 'unreadable', reason: 'billing record without time' };
    }
    buckets.push({
      startMs,
      totalUsd: firstNumber(record, TOTAL_KEYS),
      storageUsd: firstNumber(record, STORAGE_KEYS),
    });
  }
  return { kind: 'read', buckets };
}

type Records =
  { readonly ok: true; readonly value: readonly unknown[] } | { readonly ok: false; readonly reason: string };

function recordsOf(outcome: ExchangeOutcome): Records {
  if (outcome.kind === 'failed') return { ok: false, reason: outcome.reason };
  if (outcome.status < 200 || outcome.status >= 300) return { ok: false, reason: `http ${outcome.status}` };
  const parsed = parseJson(outcome.body);
  if (!parsed.ok) return { ok: false, reason: 'unparseable billing' };
  const records = bareOrWrappedArray(parsed.value, 'records');
  return records === null
    ? { ok: false, reason: 'billing records are not an array' }
    : { ok: true, value: records };
}

function timeOf(record: Record<string, unknown>): number | null {
  for (const key of TIME_KEYS) {
    const value = record[key];
    if (typeof value === 'string') {
      const ms = Date.parse(value);
      if (Number.isFinite(ms)) return ms;
    }
  }
  return null;
}

function firstNumber(record: Record<string, unknown>, keys: readonly string[]): number | null {
  for (const key of keys) {
    const value = finiteNumberField(record, key);
    if (value !== null) return value;
  }
  return null;
}
