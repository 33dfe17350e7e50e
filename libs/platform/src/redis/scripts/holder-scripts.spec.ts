import { releaseIfHolder, renewIfHolder } from '../holder-scripts';
import { useScriptSpecRedis } from '../testing/script-spec-redis';

// A lease that lapsed and was taken by another: the old holder must neither extend nor drop it.
describe('renew-if-holder and release-if-holder', () => {
  const spec = useScriptSpecRedis('holder');

  it('only the holder extends its lease; a lapsed holder cannot extend the new holder’s', async () => {
    const redis = spec.redis();
    const lease = spec.key('renew');
    await redis.set(lease, 'new-holder', 'PX', 1000);
    expect(await renewIfHolder(redis, [lease], ['old-holder', 60_000])).toBe(0);
    expect(await redis.pttl(lease)).toBeLessThanOrEqual(1000);
    expect(await renewIfHolder(redis, [lease], ['new-holder', 60_000])).toBe(1);
    expect(await redis.pttl(lease)).toBeGreaterThan(1000);
  });

  it('only the holder releases; of two releasing at once, the stale one leaves the lease in place', async () => {
    const [stale, holder] = spec.writers(2);
    const lease = spec.key('release');
    await spec.redis().set(lease, 'new-holder', 'PX', 60_000);
    const [staleAnswer, holderAnswer] = await Promise.all([
      releaseIfHolder(stale, [lease], ['old-holder']),
      releaseIfHolder(holder, [lease], ['new-holder']),
    ]);
    expect([staleAnswer, holderAnswer]).toEqual([0, 1]);
    expect(await spec.redis().exists(lease)).toBe(0);
    await spec.redis().set(lease, 'next-holder');
    expect(await releaseIfHolder(stale, [lease], ['old-holder'])).toBe(0);
    expect(await spec.redis().get(lease)).toBe('next-holder');
  });
});
