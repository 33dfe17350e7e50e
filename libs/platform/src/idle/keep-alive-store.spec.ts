import { useTestRedis } from '@podwarden/testing';
import { RedisKeys } from '../redis/redis-keys';
import { KeepAliveStore } from './keep-alive-store';

const db = useTestRedis('keepalive', { keepKeysBetweenTests: true });

describe(KeepAliveStore.name, () => {
  let store: KeepAliveStore;
  const keys = new RedisKeys(db.prefix);

  beforeAll(() => {
    store = new KeepAliveStore(db.redis, keys);
  });

  it('keys the keep-alive under the prefix by the lower-cased pod name', () => {
    expect(keys.keepAlive('QWEN')).toBe(`${db.prefix}:keepalive:qwen`);
  });

  it('reads back the deadline it set, whatever the case of the name', async () => {
    const until = Date.now() + 60_000;
    await store.set('Qwen', until);
    expect(await store.get('qwen')).toBe(until);
  });

  it('expires the key at the deadline', async () => {
    const now = Date.now();
    await store.set('expiring', now + 30_000, now);
    const ttl = await db.redis.pttl(keys.keepAlive('expiring'));
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  it('a lapsed keep-alive reads as none', async () => {
    await store.set('short', Date.now() + 50);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await store.get('short')).toBeNull();
  });

  it('a deadline already past clears the keep-alive instead of writing it', async () => {
    await store.set('past', Date.now() + 60_000);
    await store.set('past', Date.now() - 1);
    expect(await db.redis.exists(keys.keepAlive('past'))).toBe(0);
  });

  it('clear removes it, and a pod with none reads null', async () => {
    await store.set('cleared', Date.now() + 60_000);
    await store.clear('cleared');
    expect(await store.get('cleared')).toBeNull();
    expect(await store.get('never-set')).toBeNull();
  });

  it('a value that is not a number reads as none', async () => {
    await db.redis.set(keys.keepAlive('garbled'), 'soon', 'PX', 60_000);
    expect(await store.get('garbled')).toBeNull();
  });

  it("read with the reader's now, a keep-alive set by a gateway three minutes behind holds its full length", async () => {
    const behind = Date.now() - 180_000;
    await store.set('skewed', behind + 60_000, behind);
    const readerNow = Date.now();
    const until = await store.get('skewed', readerNow);
    // As stored it would read as lapsed two minutes ago; by its time left in Redis it has a minute to go.
    expect(await store.get('skewed')).toBe(behind + 60_000);
    expect(until! - readerNow).toBeGreaterThan(55_000);
    expect(until! - readerNow).toBeLessThanOrEqual(60_000);
  });

  it("read with the reader's now, a lapsed keep-alive still reads as none", async () => {
    await store.set('skewed-short', Date.now() + 50);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await store.get('skewed-short', Date.now())).toBeNull();
  });
});
