import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { readActivity } from './proxy-scripts';

describe('read-activity.lua', () => {
  const spec = useScriptSpecRedis('read-activity');

  it('drops lapsed leases before counting, and answers the time it judged by', async () => {
    const redis = spec.redis();
    const [inFlight, lastEnded] = [spec.key('in-flight'), spec.key('last-ended')];
    await redis.zadd(inFlight, 1000, 'dead-replica', 5000, 'live');
    await redis.set(lastEnded, '900');
    expect(await readActivity(redis, [inFlight, lastEnded], ['1000'])).toEqual([1, '900', '1000']);
    expect(await redis.zrange(inFlight, 0, -1)).toEqual(['live']);
  });

  it('with nothing recorded: none in flight and no last end', async () => {
    const keys = [spec.key('empty-in-flight'), spec.key('empty-last-ended')];
    expect(await readActivity(spec.redis(), keys, ['1000'])).toEqual([0, null, '1000']);
  });
});
