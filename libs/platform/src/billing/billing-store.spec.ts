import { useTestRedis } from '@podwarden/testing';
import { RedisKeys } from '../redis/redis-keys';
import { BillingStore, type BillingSnapshot } from './billing-store';

const SNAPSHOT: BillingSnapshot = {
  asOf: '2026-12-01T12:00:00.000Z',
  day: '2026-12-01',
  providerTodayUsd: 3.2,
  storageUsdPerDay: null,
  lagMs: 3_600_000,
};
const BUCKETS = [
  { podId: 'pod-1', startMs: Date.parse('2026-12-01T10:00:00Z'), usd: 0.79 },
  { podId: 'pod-1', startMs: Date.parse('2026-12-01T11:00:00Z'), usd: 0.4 },
  { podId: 'pod-2', startMs: Date.parse('2026-12-01T11:00:00Z'), usd: 1.1 },
];

describe('BillingStore (real Redis)', () => {
  let store: BillingStore;
  const db = useTestRedis('billing-store');
  const keys = new RedisKeys(db.prefix);

  beforeAll(() => {
    store = new BillingStore(db.redis, keys);
  });

  it('never reconciled: no snapshot, no buckets', async () => {
    expect(await store.snapshot()).toBeNull();
    expect(await store.podBuckets('qwen')).toEqual([]);
  });

  it('what a reconcile saved reads back as written', async () => {
    await store.save({ ...SNAPSHOT, storageUsdPerDay: 0.07 }, new Map([['qwen', BUCKETS]]), 3_200_000);
    expect(await store.snapshot()).toEqual({ ...SNAPSHOT, storageUsdPerDay: 0.07 });
    const read = await store.podBuckets('QWEN');
    expect([...read].sort((a, b) => a.podId.localeCompare(b.podId) || a.startMs - b.startMs)).toEqual(
      BUCKETS,
    );
    expect(await store.providerMicros(Date.parse('2026-12-01T13:00:00Z'))).toBe(3_200_000);
  });

  it.each([
    ['of the wrong shape (no provider spend)', JSON.stringify({ ...SNAPSHOT, providerTodayUsd: undefined })],
    ['not JSON', '{"asOf":'],
  ])('a snapshot %s is never read as "never reconciled": the read throws', async (_case, stored) => {
    await db.redis.set(keys.billingSnapshot(), stored);
    await expect(store.snapshot()).rejects.toThrow(/unreadable/);
  });

  it.each([
    ['of the wrong shape (an amount that is text)', JSON.stringify([{ ...BUCKETS[0], usd: '0.79' }])],
    ['not JSON', '[{"podId":"pod-1"'],
  ])('buckets %s are never read as "nothing billed": the read throws', async (_case, stored) => {
    await db.redis.hset(keys.billingPods('qwen'), 'pod-1', stored);
    await expect(store.podBuckets('qwen')).rejects.toThrow(/unreadable/);
  });

  it('a storage figure of the wrong type reads as not read', async () => {
    await db.redis.set(keys.billingSnapshot(), JSON.stringify({ ...SNAPSHOT, storageUsdPerDay: 'n/a' }));
    expect(await store.snapshot()).toEqual(SNAPSHOT);
  });
});
