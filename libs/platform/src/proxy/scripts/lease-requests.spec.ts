import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { endRequest, leaseRequests } from './proxy-scripts';

describe('lease-requests.lua', () => {
  const spec = useScriptSpecRedis('lease-requests');

  it('leases requests until now + lease; a renewal racing an end never brings the ended request back', async () => {
    const redis = spec.redis();
    const [inFlight, lastEnded] = [spec.key('in-flight'), spec.key('last-ended')];
    await leaseRequests(redis, [inFlight], ['1000', 30_000, '', 'r1', 'r2']);
    expect(await redis.zrange(inFlight, 0, -1, 'WITHSCORES')).toEqual(['r1', '31000', 'r2', '31000']);
    const [renewer, ender] = spec.writers(2);
    await Promise.all([
      leaseRequests(renewer, [inFlight], ['2000', 30_000, 'XX', 'r1', 'r2']),
      endRequest(ender, [inFlight, lastEnded], ['2000', 'r1']),
    ]);
    expect(await redis.zrange(inFlight, 0, -1)).toEqual(['r2']);
    expect(await redis.zscore(inFlight, 'r2')).toBe('32000');
  });
});
