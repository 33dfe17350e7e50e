import type Redis from 'ioredis';
import { INITIAL_IDLE_STATE } from '@podwarden/policies';
import { connectTestRedis, deleteKeysUnder, uniqueTestPrefix } from '@podwarden/testing';
import { RedisKeys } from '../redis/redis-keys';
import { EMPTY_IDLE_RECORD, IdleStateStore, type IdleRecord } from './idle-state-store';

const PREFIX = uniqueTestPrefix('idle-state');

const record = (lastTickId: string): IdleRecord => ({ ...EMPTY_IDLE_RECORD, lastTickId, updatedAt: 1 });

describe(IdleStateStore.name, () => {
  let redis: Redis;
  let store: IdleStateStore;
  const keys = new RedisKeys(PREFIX);

  beforeAll(() => {
    redis = connectTestRedis();
    store = new IdleStateStore(redis, keys);
  });
  afterEach(() => deleteKeysUnder(redis, PREFIX));
  afterAll(async () => {
    await deleteKeysUnder(redis, PREFIX);
    await redis.quit();
  });

  it('a pod never recorded, or a record that is not JSON, loads as the empty record', async () => {
    expect(await store.load('qwen')).toEqual(EMPTY_IDLE_RECORD);
    await redis.set(keys.idleState('qwen'), '{not json');
    expect(await store.load('qwen')).toEqual(EMPTY_IDLE_RECORD);
  });

  it('the holder of the lock saves through it, and the lock is released afterwards', async () => {
    const outcome = await store.withLock('qwen', 'holder-a', 5_000, 0, async (lock) => {
      expect(await lock.stillHeld()).toBe(true);
      return lock.save(record('tick-1'));
    });

    expect(outcome).toEqual({ ran: true, value: true });
    expect((await store.load('QWEN')).lastTickId).toBe('tick-1');
    expect(await redis.exists(keys.idleLock('qwen'))).toBe(0);
  });

  it('a second holder does not get the lock while the first holds it (waitMs 0 answers at once)', async () => {
    let inner: unknown;
    await store.withLock('qwen', 'holder-a', 5_000, 0, async () => {
      inner = await store.withLock('qwen', 'holder-b', 5_000, 0, async () => 'ran');
    });
    expect(inner).toEqual({ ran: false });
  });

  it.each([
    ['another holder took the lock after the lease lapsed', (r: Redis, key: string) => r.set(key, 'newer')],
    ['the lease lapsed and nobody holds the lock', (r: Redis, key: string) => r.del(key)],
  ])('when %s, the old holder can neither save nor release it', async (_case, lapse) => {
    await store.save('qwen', record('newer-tick'));
    const outcome = await store.withLock('qwen', 'holder-a', 5_000, 0, async (lock) => {
      await lapse(redis, keys.idleLock('qwen'));
      const before = lock.lost;
      const held = await lock.stillHeld();
      const saved = await lock.save({
        ...record('stale-tick'),
        state: { ...INITIAL_IDLE_STATE, idleStreak: 9 },
      });
      return { before, held, saved, after: lock.lost };
    });

    expect(outcome).toEqual({ ran: true, value: { before: false, held: false, saved: false, after: true } });
    expect((await store.load('qwen')).lastTickId).toBe('newer-tick');
    const lockNow = await redis.get(keys.idleLock('qwen'));
    expect(lockNow === null || lockNow === 'newer').toBe(true);
  });

  it('the lease is renewed while the work runs: the key outlives its first lease', async () => {
    const leaseMs = 600;
    const ttls: number[] = [];
    await store.withLock('qwen', 'holder-a', leaseMs, 0, async () => {
      const started = Date.now();
      // Until a renewal has been seen (the TTL went back up) and the first lease is over.
      const renewed = (): boolean => ttls.some((ttl, i) => i > 0 && ttl > ttls[i - 1]);
      while (!(renewed() && Date.now() - started > leaseMs) && Date.now() - started < 4_000) {
        ttls.push(await redis.pttl(keys.idleLock('qwen')));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await redis.get(keys.idleLock('qwen'))).toBe('holder-a');
    });
    expect(Math.min(...ttls)).toBeGreaterThan(0);
  });
});
