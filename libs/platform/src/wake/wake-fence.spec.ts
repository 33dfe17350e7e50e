import Redis from 'ioredis';
import { useTestRedis } from '@podwarden/testing';
import { RedisKeys } from '../redis/redis-keys';
import { FenceLostError, WakeFence, type GateLease } from './wake-fence';
import { WakeGate } from './wake-gate';

const db = useTestRedis('fence', { keepKeysBetweenTests: true });
const LEASE_MS = 30_000;

describe('the fenced wake gate', () => {
  let gate: WakeGate;
  const keys = new RedisKeys(db.prefix);
  let volume = 0;
  let vol: string;

  beforeAll(() => {
    gate = new WakeGate(db.redis, keys);
  });
  beforeEach(() => {
    vol = `vol-${++volume}`;
  });

  const acquire = async (attemptId: string): Promise<GateLease> => {
    const entry = await gate.enter(vol, attemptId, LEASE_MS);
    if (entry.kind !== 'acquired') throw new Error(`gate held by ${entry.holderAttemptId}`);
    return entry.lease;
  };
  const fenceOf = (lease: GateLease): WakeFence => new WakeFence(db.redis, keys, vol, lease);

  it('every acquisition takes a higher token (INCR), and joiners see the attempt id only', async () => {
    const first = await acquire('job-a');
    expect(await gate.enter(vol, 'job-b', LEASE_MS)).toEqual({ kind: 'held', holderAttemptId: 'job-a' });
    expect(await gate.holder(vol)).toBe('job-a');
    await gate.leave(vol, first);
    const second = await acquire('job-b');
    expect(second.token).toBeGreaterThan(first.token);
  });

  it('a re-delivered job (same attempt) takes a new token, and the old run can no longer write', async () => {
    const old = await acquire('job-r');
    const redelivered = await acquire('job-r');
    expect(redelivered.token).toBe(old.token + 1);

    const stale = fenceOf(old);
    await expect(stale.assertHeld()).rejects.toEqual(new FenceLostError('lost'));
    expect(stale.signal.aborted).toBe(true);
    await expect(fenceOf(redelivered).assertHeld()).resolves.toBeUndefined();
  });

  it('an operator stop takes the gate away: the run learns it was stopped; a later wake runs as usual', async () => {
    const running = fenceOf(await acquire('job-s'));
    await gate.stopWakes(vol);

    expect(await running.check()).toBe('stopped');
    await expect(running.assertHeld()).rejects.toThrow('stopped by operator');
    expect(await gate.holder(vol)).toBeNull();
    const after = fenceOf(await acquire('job-next'));
    expect(await after.check()).toBe('held');
  });

  it('a job re-delivered after an operator stop (its waker died) is stopped too, not a fresh wake', async () => {
    const first = await acquire('job-d');
    await gate.stopWakes(vol);
    const redelivered = fenceOf(await acquire('job-d'));

    expect(redelivered.lease.firstToken).toBe(first.token);
    expect(await redelivered.check()).toBe('stopped');
    await gate.leave(vol, redelivered.lease);
    const fresh = fenceOf(await acquire('job-after-stop'));
    expect(await fresh.check()).toBe('held');
  });

  it('a lapsed lease (no stop) reads as lost, and a Redis error fails closed', async () => {
    const lapsed = fenceOf(await acquire('job-l'));
    await db.redis.del(keys.wakeLock(vol));
    expect(await lapsed.check()).toBe('lost');

    // A real client that has lost its connection: commands are refused, not queued.
    const disconnected = new Redis({
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    try {
      const broken = new WakeFence(disconnected, keys, vol, { attemptId: 'job-x', token: 1, firstToken: 1 });
      expect(await broken.check()).toBe('lost');
    } finally {
      disconnected.disconnect();
    }
  });

  it('while held, a failed renewal marks the fence lost and aborts its signal', async () => {
    const lease = await acquire('job-h');
    const seen = await gate.hold(vol, lease, 300, async (fence) => {
      expect(await fence.check()).toBe('held');
      await db.redis.del(keys.wakeLock(vol));
      await new Promise<void>((resolve) => fence.signal.addEventListener('abort', () => resolve()));
      return fence.check();
    });
    expect(seen).toBe('lost');
  }, 10_000);
});
