import { releaseEachIfHolder } from '../holder-scripts';
import { useScriptSpecRedis } from '../testing/script-spec-redis';

describe('release-each-if-holder.lua', () => {
  const spec = useScriptSpecRedis('release-each');

  it('drops each lease only for its holder; one another took is left alone', async () => {
    const redis = spec.redis();
    const [mine, taken, gone] = [spec.key('mine'), spec.key('taken'), spec.key('gone')];
    await redis.set(mine, 'me', 'PX', 60_000);
    await redis.set(taken, 'newer', 'PX', 60_000);
    expect(await releaseEachIfHolder(redis, [mine, taken, gone], ['me', 'me', 'me'])).toEqual([1, 0, 0]);
    expect(await redis.mget(mine, taken)).toEqual([null, 'newer']);
  });
});
