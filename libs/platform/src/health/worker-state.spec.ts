import type { Worker } from 'bullmq';
import { parseConfig, TICK_SLACK_MS, type PodwardenConfig } from '@podwarden/policies';
import { useTestRedis } from '@podwarden/testing';
import { RedisKeys } from '../redis/redis-keys';
import { WorkerState } from './worker-state';

const db = useTestRedis('worker-state', { keepKeysBetweenTests: true });
const keys = new RedisKeys(db.prefix);
const config = ((): PodwardenConfig => {
  const parsed = parseConfig({ CHECK_SECONDS: '10', QUEUE_PREFIX: db.prefix }, null);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
})();
const STALE_AFTER_MS = 30_000 + TICK_SLACK_MS;

afterEach(() => db.redis.del(keys.idleLastTick()));

/** A replica with a clock the spec moves. */
function replica(ticks = true, startAt = 1_000_000) {
  const clock = { now: startAt };
  const state = new WorkerState(db.redis, keys, config, ticks, () => clock.now);
  return { state, clock };
}

function fakeWorker(flags: { running?: boolean; paused?: boolean; closing?: boolean } = {}): Worker {
  return {
    isRunning: () => flags.running ?? true,
    isPaused: () => flags.paused ?? false,
    closing: flags.closing ? Promise.resolve() : undefined,
  } as unknown as Worker;
}

describe(WorkerState.name, () => {
  describe('ticks', () => {
    it('a worker without ticks reports no freshness and no tick age', async () => {
      const { state } = replica(false);
      expect(await state.tickFreshness()).toBeNull();
      expect(await state.tickAgeSeconds()).toBeNull();
    });

    it('counts from start-up until a first tick, and goes stale when none completes', async () => {
      const { state, clock } = replica();
      clock.now += STALE_AFTER_MS;
      expect(await state.tickFreshness()).toMatchObject({ fresh: true, ageMs: STALE_AFTER_MS });
      clock.now += 1;
      expect(await state.tickFreshness()).toMatchObject({ fresh: false, ageMs: STALE_AFTER_MS + 1 });
    });

    it('a tick completed on another replica keeps this one fresh (ticks are shared through Redis)', async () => {
      const a = replica();
      const b = replica();
      a.clock.now += STALE_AFTER_MS;
      b.clock.now += STALE_AFTER_MS;
      await a.state.tickCompleted();
      a.clock.now += 5000;
      b.clock.now += 5000;

      expect(await b.state.tickFreshness()).toMatchObject({ fresh: true, ageMs: 5000 });
      expect(await b.state.tickAgeSeconds()).toBe(5);
    });

    it('the newest completion wins: a local tick is newer than what Redis holds', async () => {
      const { state, clock } = replica();
      await db.redis.set(keys.idleLastTick(), String(clock.now - 1000));
      clock.now += 2000;
      await state.tickCompleted();
      clock.now += 3000;
      expect(await state.tickFreshness()).toMatchObject({ ageMs: 3000 });
      expect(Number(await db.redis.get(keys.idleLastTick()))).toBe(clock.now - 3000);
      expect(await db.redis.pttl(keys.idleLastTick())).toBeGreaterThan(STALE_AFTER_MS);
    });

    it('unreadable text in Redis is ignored, not taken for a tick', async () => {
      const { state, clock } = replica();
      await db.redis.set(keys.idleLastTick(), 'garbage');
      clock.now += STALE_AFTER_MS + 1;
      expect(await state.tickFreshness()).toMatchObject({ fresh: false });
    });
  });

  describe('worker', () => {
    it.each<[string, Worker | null, boolean]>([
      ['not attached yet', null, false],
      ['running', fakeWorker(), true],
      ['stopped running', fakeWorker({ running: false }), false],
      ['paused (shutting down)', fakeWorker({ paused: true }), false],
      ['closing', fakeWorker({ closing: true }), false],
    ])('%s', (_what, worker, expected) => {
      const { state } = replica();
      if (worker !== null) state.attach(worker);
      expect(state.workerTakingJobs()).toBe(expected);
    });
  });
});
