import { MAX_RECORDED_USES } from '@podwarden/policies';
import { useTestRedis } from '@podwarden/testing';
import { RedisKeys } from '../redis/redis-keys';
import { RhythmStore } from './rhythm-store';
import { UsageStore } from './usage-store';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-02T09:00:00Z');

describe('UsageStore (real Redis)', () => {
  const usage = useTestRedis('usage', { keepKeysBetweenTests: true });
  const keys = new RedisKeys(usage.prefix);

  it('keeps uses, boots and stops oldest first, shared by any store on the same prefix', async () => {
    const writer = new UsageStore(usage.redis, keys, 28);
    const reader = new UsageStore(usage.redis, keys, 28);
    await writer.recordUse('Qwen', { start: T0 + 60_000, end: T0 + 66_000 });
    await writer.recordUse('qwen', { start: T0, end: T0 + 5_000 });
    await writer.recordBoot('qwen', {
      wakeAt: T0 - 200_000,
      readyAt: T0 - 10_000,
      gpuId: 'NVIDIA A40',
      pricePerHour: 0.4,
      prewake: true,
    });
    await writer.recordStop('qwen', { at: T0 + 900_000, trigger: 'idle' });
    const record = await reader.read('QWEN', T0 - DAY);
    expect(record.uses).toEqual([
      { start: T0, end: T0 + 5_000 },
      { start: T0 + 60_000, end: T0 + 66_000 },
    ]);
    expect(record.boots).toEqual([
      { wakeAt: T0 - 200_000, readyAt: T0 - 10_000, gpuId: 'NVIDIA A40', pricePerHour: 0.4, prewake: true },
    ]);
    expect(record.stops).toEqual([{ at: T0 + 900_000, trigger: 'idle' }]);
    expect(await reader.useCount('qwen')).toBe(2);
    expect(await reader.usesSince('qwen', T0 + 1)).toBe(1);
  });

  it('records the same use twice only once (a re-run tick)', async () => {
    const store = new UsageStore(usage.redis, keys, 28);
    await store.recordUse('twice', { start: T0, end: T0 + 60_000 });
    await store.recordUse('twice', { start: T0, end: T0 + 60_000 });
    expect(await store.useCount('twice')).toBe(1);
  });

  it('drops what is older than the retention when it writes, and the key expires with it', async () => {
    const store = new UsageStore(usage.redis, keys, 2);
    await store.recordUse('old', { start: T0, end: T0 + 1_000 });
    await store.recordUse('old', { start: T0 + 1.5 * DAY, end: T0 + 1.5 * DAY + 1_000 });
    await store.recordUse('old', { start: T0 + 3 * DAY, end: T0 + 3 * DAY + 1_000 });
    expect((await store.read('old', 0)).uses.map((u) => u.start)).toEqual([T0 + 1.5 * DAY, T0 + 3 * DAY]);
    const ttl = await usage.redis.pttl(keys.usageUses('old'));
    expect(ttl).toBeGreaterThan(DAY);
    expect(ttl).toBeLessThanOrEqual(2 * DAY);
  });

  it('keeps at most the newest MAX_RECORDED_USES uses', async () => {
    const store = new UsageStore(usage.redis, keys, 28);
    const batch = usage.redis.multi();
    for (let i = 0; i < MAX_RECORDED_USES; i += 1)
      batch.zadd(keys.usageUses('many'), T0 + i, `${T0 + i}:${T0 + i}`);
    await batch.exec();
    await store.recordUse('many', { start: T0 + MAX_RECORDED_USES, end: T0 + MAX_RECORDED_USES + 1 });
    expect(await store.useCount('many')).toBe(MAX_RECORDED_USES);
    const { uses } = await store.read('many', 0);
    expect(uses[0].start).toBe(T0 + 1);
  });

  it('skips members that do not parse', async () => {
    const store = new UsageStore(usage.redis, keys, 28);
    await usage.redis.zadd(keys.usageUses('junk'), T0, 'not-a-use');
    await usage.redis.zadd(keys.usageBoots('junk'), T0, '{"wakeAt":"x"}');
    await usage.redis.zadd(keys.usageStops('junk'), T0, 'nope');
    expect(await store.read('junk', 0)).toEqual({ uses: [], boots: [], stops: [] });
  });

  it('skips boots and stops of the wrong shape or not JSON, keeps the readable ones beside them', async () => {
    const store = new UsageStore(usage.redis, keys, 28);
    const boot = { wakeAt: T0, readyAt: T0 + 60_000, gpuId: null, pricePerHour: 0.44, prewake: true };
    await store.recordBoot('mixed', boot);
    await store.recordStop('mixed', { at: T0 + 120_000, trigger: 'idle' });
    await usage.redis.zadd(keys.usageBoots('mixed'), T0 + 1, '{"wakeAt":1,"readyAt":');
    await usage.redis.zadd(keys.usageBoots('mixed'), T0 + 2, JSON.stringify({ wakeAt: T0 + 2 }));
    await usage.redis.zadd(keys.usageStops('mixed'), T0 + 3, JSON.stringify({ at: T0 + 3, trigger: 4 }));
    await usage.redis.zadd(keys.usageStops('mixed'), T0 + 4, '{"at":');
    expect(await store.read('mixed', 0)).toEqual({
      uses: [],
      boots: [boot],
      stops: [{ at: T0 + 120_000, trigger: 'idle' }],
    });
  });
});

describe('RhythmStore (real Redis)', () => {
  const rhythm = useTestRedis('rhythm', { keepKeysBetweenTests: true });

  it('gives out at most maxPerDay pre-wakes a UTC day, across stores, and a new day starts afresh', async () => {
    const a = new RhythmStore(rhythm.redis, new RedisKeys(rhythm.prefix));
    const b = new RhythmStore(rhythm.redis, new RedisKeys(rhythm.prefix));
    const taken = await Promise.all([1, 2, 3].map((i) => (i % 2 ? a : b).takePrewake('qwen', T0, 2)));
    expect(taken.filter(Boolean)).toHaveLength(2);
    expect(await a.takePrewake('qwen', T0 + DAY, 2)).toBe(true);
  });

  it('keeps the pre-wake run until it is ended', async () => {
    const store = new RhythmStore(rhythm.redis, new RedisKeys(rhythm.prefix));
    const slot = {
      dayClass: 'weekday' as const,
      wakeMinute: 530,
      untilMinute: 560,
      hitRate: 0.9,
      gainUsd: 0.1,
    };
    await store.savePrewakeRun('qwen', { at: T0, slot, attemptId: 'a1', hit: false });
    expect(await store.prewakeRun('qwen')).toEqual({ at: T0, slot, attemptId: 'a1', hit: false });
    await store.endPrewakeRun('qwen');
    expect(await store.prewakeRun('qwen')).toBeNull();
  });

  it('a learned snapshot reads back as saved; an unreadable one (wrong shape or not JSON) is none', async () => {
    const keys = new RedisKeys(rhythm.prefix);
    const store = new RhythmStore(rhythm.redis, keys);
    const window = { minutes: 12, policy: 'adaptive' as const, basis: 'ski rental over 40 gaps' };
    const slot = {
      dayClass: 'weekend' as const,
      wakeMinute: -10,
      untilMinute: 30,
      hitRate: 0.7,
      gainUsd: 0.2,
    };
    const snapshot = {
      learnedAt: T0,
      uses: 40,
      rhythm: { window, prewakes: [slot], bootMinutes: null },
      inForce: window,
      nextPrewakeAt: null,
    };
    await store.saveSnapshot('learned', snapshot);
    expect(await store.snapshot('learned')).toEqual(snapshot);
    await rhythm.redis.set(
      keys.rhythm('learned'),
      JSON.stringify({ ...snapshot, inForce: { minutes: '12' } }),
    );
    expect(await store.snapshot('learned')).toBeNull();
    await rhythm.redis.set(keys.rhythm('learned'), '{"learnedAt":');
    expect(await store.snapshot('learned')).toBeNull();
  });

  it('an unreadable pre-wake run (wrong shape or not JSON) is none', async () => {
    const keys = new RedisKeys(rhythm.prefix);
    const store = new RhythmStore(rhythm.redis, keys);
    await rhythm.redis.set(
      keys.prewakeRun('torn'),
      JSON.stringify({ at: T0, slot: null, attemptId: 'a1', hit: false }),
    );
    expect(await store.prewakeRun('torn')).toBeNull();
    await rhythm.redis.set(keys.prewakeRun('torn'), '{"at":');
    expect(await store.prewakeRun('torn')).toBeNull();
  });
});
