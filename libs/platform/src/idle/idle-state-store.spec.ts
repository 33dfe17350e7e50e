import type Redis from 'ioredis';
import { INITIAL_IDLE_STATE } from '@podwarden/policies';
import { useTestRedis } from '@podwarden/testing';
import { RedisKeys } from '../redis/redis-keys';
import { EMPTY_IDLE_RECORD, IdleStateStore, type IdleRecord } from './idle-state-store';

const db = useTestRedis('idle-state');

const record = (lastTickId: string): IdleRecord => ({ ...EMPTY_IDLE_RECORD, lastTickId, updatedAt: 1 });

describe(IdleStateStore.name, () => {
  let store: IdleStateStore;
  const keys = new RedisKeys(db.prefix);

  beforeAll(() => {
    store = new IdleStateStore(db.redis, keys);
  });

  it('a pod never recorded, or a record that is not JSON, loads as the empty record', async () => {
    expect(await store.load('qwen')).toEqual(EMPTY_IDLE_RECORD);
    await db.redis.set(keys.idleState('qwen'), '{not json');
    expect(await store.load('qwen')).toEqual(EMPTY_IDLE_RECORD);
  });

  it('a full record, every optional clock included, reads back as saved', async () => {
    const full: IdleRecord = {
      state: {
        phase: 'Ready',
        idleStreak: 3,
        bootingTicks: 2,
        upSince: 1_000,
        bootStartedAt: 1_000,
        readySince: 2_000,
        lastTickAt: 9_000,
      },
      baselines: { 'pod-1': 42 },
      updatedAt: 9_000,
      lastTickId: 'tick-9',
      lastTickScheduledAt: 8_900,
      seenUp: ['pod-1'],
      neverRanSince: { 'pod-2': 5_000 },
      errorSince: { 'pod-3': { since: 4_000, stoppedAt: null }, 'pod-4': { since: 4_000, stoppedAt: 6_000 } },
    };
    await store.save('qwen', full);
    expect(await store.load('qwen')).toEqual(full);
    await store.save('qwen', record('tick-1'));
    const minimal = await store.load('qwen');
    expect(minimal).toEqual({ ...record('tick-1'), lastTickScheduledAt: null });
    expect(Object.keys(minimal)).not.toEqual(expect.arrayContaining(['seenUp']));
  });

  it.each([['[]'], ['42'], ['null'], ['"text"']])(
    'a record that is not a JSON object (%s) loads as the empty record, never as a pod mid-run',
    async (stored) => {
      await db.redis.set(keys.idleState('qwen'), stored);
      expect(await store.load('qwen')).toEqual(EMPTY_IDLE_RECORD);
    },
  );

  it('inside a record, a field of the wrong type reads as absent and the readable ones are kept', async () => {
    await db.redis.set(
      keys.idleState('qwen'),
      JSON.stringify({
        state: {
          phase: 'Ready',
          idleStreak: '3',
          bootingTicks: 1,
          upSince: 1_000,
          readySince: 'x',
          lastTickAt: 9_000,
        },
        baselines: 'none',
        updatedAt: 9_000,
        lastTickId: 7,
        seenUp: 'pod-1',
        errorSince: { 'pod-3': { since: 4_000, stoppedAt: null }, 'pod-5': { since: 'soon' } },
      }),
    );
    expect(await store.load('qwen')).toEqual({
      // The idle streak restarts (the pod is stopped a window later, not never); the runtime cap's clock is kept.
      state: { ...INITIAL_IDLE_STATE, phase: 'Ready', bootingTicks: 1, upSince: 1_000, lastTickAt: 9_000 },
      baselines: {},
      updatedAt: 9_000,
      lastTickId: null,
      lastTickScheduledAt: null,
      errorSince: { 'pod-3': { since: 4_000, stoppedAt: null } },
    });
  });

  it('the holder of the lock saves through it, and the lock is released afterwards', async () => {
    const outcome = await store.withLock('qwen', 'holder-a', 5_000, 0, async (lock) => {
      expect(await lock.stillHeld()).toBe(true);
      return lock.save(record('tick-1'));
    });

    expect(outcome).toEqual({ ran: true, value: true });
    expect((await store.load('QWEN')).lastTickId).toBe('tick-1');
    expect(await db.redis.exists(keys.idleLock('qwen'))).toBe(0);
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
      await lapse(db.redis, keys.idleLock('qwen'));
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
    const lockNow = await db.redis.get(keys.idleLock('qwen'));
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
        ttls.push(await db.redis.pttl(keys.idleLock('qwen')));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await db.redis.get(keys.idleLock('qwen'))).toBe('holder-a');
    });
    expect(Math.min(...ttls)).toBeGreaterThan(0);
  });
});
