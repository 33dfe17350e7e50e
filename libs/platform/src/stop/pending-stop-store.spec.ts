import type { PendingStop } from '@podwarden/policies';
import { useTestRedis } from '@podwarden/testing';
import { RedisKeys } from '../redis/redis-keys';
import { PendingStopStore } from './pending-stop-store';

const db = useTestRedis('pending-stops');
const KEYS = new RedisKeys(db.prefix);
const AT = Date.parse('2026-12-01T12:00:00Z');

describe('PendingStopStore (real Redis)', () => {
  let store: PendingStopStore;

  beforeAll(() => {
    store = new PendingStopStore(db.redis, KEYS);
  });

  it('a tracked stop and a tick’s verdicts read back as written', async () => {
    await store.track('qwen', 'pod-1', 'idle', AT);
    expect(await store.all('qwen')).toEqual([
      { podId: 'pod-1', trigger: 'idle', stoppedAt: AT, ticksWaited: 0, restops: 0, confirmedAt: null },
    ]);
    const confirmed: PendingStop = {
      podId: 'pod-1',
      trigger: 'idle',
      stoppedAt: AT,
      ticksWaited: 2,
      restops: 1,
      confirmedAt: AT + 60_000,
    };
    await store.apply('qwen', new Map([['pod-1', confirmed]]));
    expect(await store.all('qwen')).toEqual([confirmed]);
    expect(await store.unconfirmed(['qwen'])).toBe(0);
  });

  it.each([
    [
      'of the wrong shape (counts that are text)',
      JSON.stringify({ podId: 'pod-2', trigger: 'idle', stoppedAt: AT, ticksWaited: '1', restops: 0 }),
    ],
    ['not JSON', '{"podId":"pod-2"'],
  ])('an entry %s is dropped; the readable ones are still followed', async (_case, stored) => {
    await store.track('qwen', 'pod-1', 'idle', AT);
    await db.redis.hset(KEYS.pendingStops('qwen'), 'pod-2', stored);
    expect((await store.all('qwen')).map((entry) => entry.podId)).toEqual(['pod-1']);
    expect(await store.unconfirmed(['qwen'])).toBe(1);
  });

  it('a confirmation time that is not a number reads as not confirmed: the stop is still followed', async () => {
    const entry = { podId: 'pod-1', trigger: 'idle', stoppedAt: AT, ticksWaited: 1, restops: 0 };
    await db.redis.hset(KEYS.pendingStops('qwen'), 'pod-1', JSON.stringify({ ...entry, confirmedAt: 'yes' }));
    expect(await store.all('qwen')).toEqual([{ ...entry, confirmedAt: null }]);
  });
});
