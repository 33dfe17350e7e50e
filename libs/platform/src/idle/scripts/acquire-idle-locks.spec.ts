import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { acquireIdleLocks } from './idle-scripts';

describe('acquire-idle-locks.lua', () => {
  const spec = useScriptSpecRedis('acquire-idle-locks');

  it('takes each free lock with its own holder and lease, and leaves a held one to its holder', async () => {
    const redis = spec.redis();
    const [free, held] = [spec.key('free'), spec.key('held')];
    await redis.set(held, 'other', 'PX', 60_000);
    expect(await acquireIdleLocks(redis, [free, held], ['mine-1', 5_000, 'mine-2', 5_000])).toEqual([1, 0]);
    expect(await redis.mget(free, held)).toEqual(['mine-1', 'other']);
    expect(await redis.pttl(free)).toBeGreaterThan(4_000);
  });

  it('of two replicas racing for the same locks, each lock goes to exactly one', async () => {
    const keys = [spec.key('race-1'), spec.key('race-2'), spec.key('race-3')];
    const [one, two] = spec.writers(2);
    const [a, b] = await Promise.all([
      acquireIdleLocks(one, keys, ['a', 5_000, 'a', 5_000, 'a', 5_000]),
      acquireIdleLocks(two, keys, ['b', 5_000, 'b', 5_000, 'b', 5_000]),
    ]);
    expect(a.map((taken, i) => taken + b[i])).toEqual([1, 1, 1]);
  });
});
