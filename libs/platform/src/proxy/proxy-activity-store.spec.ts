import type Redis from 'ioredis';
import { MovedClock, useTestRedis } from '@podwarden/testing';
import { RedisClock } from '../redis/redis-clock';
import { RedisKeys } from '../redis/redis-keys';
import { ProxyActivityStore } from './proxy-activity-store';

const db = useTestRedis('proxy-activity', { keepKeysBetweenTests: true });
const LEASE = 1000;
const T0 = 1_700_000_000_000;
/** A clock three minutes behind (a proxy host) or ahead (an idle monitor host) of Redis's. */
const MINUTES_3 = 180_000;

async function redisNow(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

describe(ProxyActivityStore.name, () => {
  let store: ProxyActivityStore;
  let replica: ProxyActivityStore;
  let onRedis: ProxyActivityStore;
  const keys = new RedisKeys(db.prefix);
  const shared = new MovedClock(T0);
  /** Moves the shared clock to `t` for the calls that follow. */
  const at = (t: number): void => {
    shared.at = t;
  };

  beforeAll(() => {
    store = new ProxyActivityStore(db.redis, keys, shared, LEASE);
    replica = new ProxyActivityStore(db.redis, keys, shared, LEASE);
    onRedis = new ProxyActivityStore(db.redis, keys, new RedisClock(db.redis), LEASE);
  });

  describe('on a clock the test moves', () => {
    it('a pod nobody served reads nothing in flight and no last end', async () => {
      at(T0);
      expect(await store.read('never', T0)).toEqual({ inFlight: 0, lastEndedAt: null });
    });

    it('counts the requests of every replica while they run, whatever the case of the name', async () => {
      at(T0);
      await store.begin('Qwen', 'a');
      await replica.begin('qwen', 'b');
      at(T0 + 10);
      expect(await store.read('QWEN', T0 + 10)).toEqual({ inFlight: 2, lastEndedAt: null });
      at(T0 + 20);
      await replica.end('qwen', 'b');
      at(T0 + 30);
      expect(await store.read('qwen', T0 + 30)).toEqual({ inFlight: 1, lastEndedAt: T0 + 20 });
    });

    it('a request not renewed lapses after the lease (a replica that died mid-request)', async () => {
      at(T0);
      await store.begin('lapse', 'dead');
      at(T0 + LEASE - 1);
      expect((await store.read('lapse', T0)).inFlight).toBe(1);
      at(T0 + LEASE + 1);
      expect((await store.read('lapse', T0)).inFlight).toBe(0);
    });

    it('a renewed request stays in flight past its first lease; an ended one is not brought back', async () => {
      at(T0);
      await store.begin('renew', 'long');
      await store.begin('renew', 'short');
      at(T0 + 100);
      await store.end('renew', 'short');
      at(T0 + LEASE - 10);
      await store.renew('renew', ['long', 'short']);
      at(T0 + LEASE + 100);
      expect(await store.read('renew', T0 + LEASE + 100)).toEqual({ inFlight: 1, lastEndedAt: T0 + 100 });
    });

    it('the last end never moves back when replicas end out of order', async () => {
      at(T0);
      await store.begin('order', 'x');
      await store.begin('order', 'y');
      at(T0 + 500);
      await store.end('order', 'x');
      at(T0 + 300);
      await replica.end('order', 'y');
      at(T0 + 600);
      expect((await store.read('order', T0 + 600)).lastEndedAt).toBe(T0 + 500);
    });

    it('the last end comes back on the reader clock: its age, counted back from the reader now', async () => {
      at(T0);
      await store.end('frame', 'z');
      // Read 250 ms later on the shared clock by a reader whose clock is three minutes ahead.
      at(T0 + 250);
      const read = await store.read('frame', T0 + MINUTES_3 + 250);
      expect(read.lastEndedAt).toBe(T0 + MINUTES_3);
    });
  });

  describe("on Redis's clock (production)", () => {
    it("a lease is scored and judged by Redis's clock, whatever the writer's and reader's clocks", async () => {
      const before = await redisNow(db.redis);
      await onRedis.begin('redis-clock', 'r1');
      const [, score] = await db.redis.zrange(keys.proxyInFlight('redis-clock'), 0, -1, 'WITHSCORES');
      expect(Number(score)).toBeGreaterThanOrEqual(before + LEASE);
      expect(Number(score)).toBeLessThanOrEqual((await redisNow(db.redis)) + LEASE);
      // A reader three minutes ahead of Redis still counts the lease as open.
      expect((await onRedis.read('redis-clock', Date.now() + MINUTES_3)).inFlight).toBe(1);
    });

    it('a request not renewed lapses a lease after it began; a renewed one does not', async () => {
      // A longer lease: a loaded machine must stall two renewals in a row to lapse the live request.
      const slow = new ProxyActivityStore(db.redis, keys, new RedisClock(db.redis), 3 * LEASE);
      await slow.begin('redis-lapse', 'dead');
      await slow.begin('redis-lapse', 'alive');
      const renewing = setInterval(() => void slow.renew('redis-lapse', ['alive']), slow.renewEveryMs);
      try {
        await new Promise((r) => setTimeout(r, 3 * LEASE + 500));
        expect((await slow.read('redis-lapse', Date.now())).inFlight).toBe(1);
      } finally {
        clearInterval(renewing);
      }
    });

    it('a request that ended reads as ended just now, on the reader clock, however far that clock is off', async () => {
      await onRedis.begin('redis-end', 'e1');
      await onRedis.end('redis-end', 'e1');
      for (const readerNow of [Date.now() - MINUTES_3, Date.now() + MINUTES_3]) {
        const read = await onRedis.read('redis-end', readerNow);
        expect(read.inFlight).toBe(0);
        expect(readerNow - read.lastEndedAt!).toBeGreaterThanOrEqual(0);
        expect(readerNow - read.lastEndedAt!).toBeLessThan(5_000);
      }
    });
  });
});
