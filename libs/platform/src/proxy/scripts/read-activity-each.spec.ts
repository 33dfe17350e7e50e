import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { readActivityEach } from './proxy-scripts';

describe('read-activity-each.lua', () => {
  const spec = useScriptSpecRedis('read-activity-each');

  it('answers per pod how many are in flight, the last end and the time it judged by, lapsed leases dropped first', async () => {
    const redis = spec.redis();
    const [inA, lastA, inB, lastB] = ['in-a', 'last-a', 'in-b', 'last-b'].map(spec.key);
    await redis.zadd(inA, 1000, 'dead-replica', 5000, 'live');
    await redis.set(lastA, '900');
    expect(await readActivityEach(redis, [inA, lastA, inB, lastB], ['1000'])).toEqual([
      [1, '900', '1000'],
      [0, null, '1000'],
    ]);
    expect(await redis.zrange(inA, 0, -1)).toEqual(['live']);
  });
});
