import type Redis from 'ioredis';
import { connectTestRedis, deleteKeysUnder, uniqueTestPrefix } from '@podwarden/testing';
import { RedisKeys } from '../redis/redis-keys';
import { ProxyActivityStore } from './proxy-activity-store';

const PREFIX = uniqueTestPrefix('proxy-activity');
const LEASE = 1000;
const T0 = 1_700_000_000_000;

describe(ProxyActivityStore.name, () => {
  let redis: Redis;
  let store: ProxyActivityStore;
  let replica: ProxyActivityStore;
  const keys = new RedisKeys(PREFIX);

  beforeAll(() => {
    redis = connectTestRedis();
    store = new ProxyActivityStore(redis, keys, LEASE);
    replica = new ProxyActivityStore(redis, keys, LEASE);
  });
  afterAll(async () => {
    await deleteKeysUnder(redis, PREFIX);
    await redis.quit();
  });

  it('a pod nobody served reads nothing in flight and no last end', async () => {
    expect(await store.read('never', T0)).toEqual({ inFlight: 0, lastEndedAt: null });
  });

  it('counts the requests of every replica while they run, whatever the case of the name', async () => {
    await store.begin('Qwen', 'a', T0);
    await replica.begin('qwen', 'b', T0);
    expect(await store.read('QWEN', T0 + 10)).toEqual({ inFlight: 2, lastEndedAt: null });
    await replica.end('qwen', 'b', T0 + 20);
    expect(await store.read('qwen', T0 + 30)).toEqual({ inFlight: 1, lastEndedAt: T0 + 20 });
  });

  it('a request not renewed lapses after the lease (a replica that died mid-request)', async () => {
    await store.begin('lapse', 'dead', T0);
    expect((await store.read('lapse', T0 + LEASE - 1)).inFlight).toBe(1);
    expect((await store.read('lapse', T0 + LEASE + 1)).inFlight).toBe(0);
  });

  it('a renewed request stays in flight past its first lease; an ended one is not brought back', async () => {
    await store.begin('renew', 'long', T0);
    await store.begin('renew', 'short', T0);
    await store.end('renew', 'short', T0 + 100);
    await store.renew('renew', ['long', 'short'], T0 + LEASE - 10);
    expect(await store.read('renew', T0 + LEASE + 100)).toEqual({ inFlight: 1, lastEndedAt: T0 + 100 });
  });

  it('the last end never moves back when replicas end out of order', async () => {
    await store.begin('order', 'x', T0);
    await store.begin('order', 'y', T0);
    await store.end('order', 'x', T0 + 500);
    await replica.end('order', 'y', T0 + 300);
    expect((await store.read('order', T0 + 600)).lastEndedAt).toBe(T0 + 500);
  });
});
