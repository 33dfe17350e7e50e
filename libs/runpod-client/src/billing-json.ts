import { z } from 'zod';
import type { BilledBucket } from '@podwarden/policies';
import type { ExchangeOutcome } from './http-exchange';
import {
  bareOrWrappedArray,
  finiteNumber,
  nonBlankText,
  parseJson,
  readOrNull,
  timeMs,
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
// older spellings (v1 `amount`, `time`) are read too, the first readable one wins.
const billingRecord = z
  .object({
    podId: nonBlankText,
    time: timeMs,
    startTime: timeMs,
    bucketStart: timeMs,
    totalAmount: finiteNumber,
    amount: finiteNumber,
    total: finiteNumber,
    storageAmount: finiteNumber,
    storage: finiteNumber,
    networkVolumeAmount: finiteNumber,
  })
  .transform((record) => ({
    podId: record.podId,
    startMs: record.time ?? record.startTime ?? record.bucketStart,
    totalUsd: record.totalAmount ?? record.amount ?? record.total,
    storageUsd: record.storageAmount ?? record.storage ?? record.networkVolumeAmount,
  }));

const billingRecords = bareOrWrappedArray('records');

/** Shapes GET /billing/pods. A record we cannot attribute or price makes the whole read unreadable. */
export function podBillingFromOutcome(outcome: ExchangeOutcome, askedPodId: string | null): PodBillingRead {
  const records = recordsOf(outcome);
  if (!records.ok) return { kind: 'unreadable', reason: records.reason };
  const buckets: BilledBucket[] = [];
  for (const entry of records.value) {
    const record = readOrNull(billingRecord, entry);
    if (record === null) return { kind: 'unreadable', reason: 'billing record is not an object' };
    const podId = record.podId ?? askedPodId;
    const { startMs, totalUsd: usd } = record;
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
  for (const entry of records.value) {
    const record = readOrNull(billingRecord, entry);
    if (record === null || record.startMs === null) {
      return { kind: 'unreadable', reason: 'billing record without time' };
    }
    buckets.push({ startMs: record.startMs, totalUsd: record.totalUsd, storageUsd: record.storageUsd });
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
  const records = readOrNull(billingRecords, parsed.value);
  return records === null
    ? { ok: false, reason: 'billing records are not an array' }
    : { ok: true, value: records };
}
