import { hgetallEach, hgetEach } from '../read-each-hash';
import { useScriptSpecRedis } from '../testing/script-spec-redis';

describe('read-each-hash.lua', () => {
  const spec = useScriptSpecRedis('read-each-hash');

  it('reads one field of each hash, null where the hash or the field is missing', async () => {
    const redis = spec.redis();
    const [a, b, c] = [spec.key('a'), spec.key('b'), spec.key('c')];
    await redis.hset(a, 'gen', '3');
    await redis.hset(b, 'other', 'x');
    expect(await hgetEach(redis, [a, b, c], 'gen')).toEqual(['3', null, null]);
  });

  it('reads each hash whole, as HGETALL answers it (empty where none)', async () => {
    const redis = spec.redis();
    const [d, e] = [spec.key('d'), spec.key('e')];
    await redis.hset(d, 'p1', 'one', 'p2', 'two');
    expect(await hgetallEach(redis, [d, e])).toEqual([await redis.hgetall(d), {}]);
  });
});
