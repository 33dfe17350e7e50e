import type Redis from 'ioredis';
import type { BilledBucket } from '@podwarden/policies';
import { utcDay } from '@podwarden/policies';
import type { RedisKeys } from '../redis/redis-keys';
import { readStoredOrThrow } from '../redis/stored-json';
import { billedBucketsSchema, billingSnapshotSchema } from './billing-snapshot.schema';

/** What the last reconcile read from RunPod's billing, account-wide. */
export interface BillingSnapshot {
  /** When RunPod's billing was read (ISO). */
  readonly asOf: string;
  /** The UTC day `providerTodayUsd` counts. */
  readonly day: string;
  /** Provider-attributed spend today: our pods and every pod on a configured volume. */
  readonly providerTodayUsd: number;
  /** The account's network volume storage of the last whole day in the aggregate; null when not read. */
  readonly storageUsdPerDay: number | null;
  /** The billing lag the reconcile allowed for, so a run's amount is shown only once reported past its stop. */
  readonly lagMs: number;
}

const DAY_KEY_TTL_SECONDS = 3 * 86_400;
// Hourly buckets of the look-back window; a pod id that stops billing drops out after this.
const POD_BUCKETS_TTL_SECONDS = 3 * 86_400;

/** RunPod's billing as the reconcile job last read it, shared in Redis with the gateways and wakers. */
export class BillingStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** One reconcile's results at once: the snapshot, each configured pod's buckets, today's provider spend. */
  async save(
    snapshot: BillingSnapshot,
    bucketsByPod: ReadonlyMap<string, readonly BilledBucket[]>,
    providerMicros: number,
  ): Promise<void> {
    const multi = this.redis.multi();
    multi.set(this.keys.billingSnapshot(), JSON.stringify(snapshot));
    for (const [podName, buckets] of bucketsByPod) {
      const key = this.keys.billingPods(podName);
      const byPodId = new Map<string, BilledBucket[]>();
      for (const bucket of buckets) byPodId.set(bucket.podId, [...(byPodId.get(bucket.podId) ?? []), bucket]);
      multi.del(key);
      for (const [podId, own] of byPodId) multi.hset(key, podId, JSON.stringify(own));
      multi.expire(key, POD_BUCKETS_TTL_SECONDS);
    }
    multi.set(this.keys.budgetProvider(snapshot.day), String(providerMicros), 'EX', DAY_KEY_TTL_SECONDS);
    await multi.exec();
  }

  /** Null when never reconciled; throws on an unreadable snapshot, which is never "nothing billed". */
  async snapshot(): Promise<BillingSnapshot | null> {
    const raw = await this.redis.get(this.keys.billingSnapshot());
    return raw === null ? null : readStoredOrThrow(billingSnapshotSchema, raw, 'billing snapshot');
  }

  /** The configured pod's pods' buckets; an empty list when none were read; throws when one is unreadable. */
  async podBuckets(podName: string): Promise<BilledBucket[]> {
    const raw = await this.redis.hvals(this.keys.billingPods(podName));
    return raw.flatMap((json) =>
      readStoredOrThrow(billedBucketsSchema, json, `billed buckets of ${podName}`),
    );
  }

  /** Today's provider spend in micro-dollars, null when never read today. */
  async providerMicros(now: number): Promise<number | null> {
    const raw = await this.redis.get(this.keys.budgetProvider(utcDay(now)));
    return raw === null ? null : Number(raw);
  }
}
