import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { writeSnapshotsIfCurrent } from './status-scripts';

describe('write-snapshots-if-current.lua', () => {
  const spec = useScriptSpecRedis('write-snapshots');

  it('writes each snapshot only at its generation and never over a newer observation', async () => {
    const redis = spec.redis();
    const [fresh, invalidated, newer] = [spec.key('fresh'), spec.key('invalidated'), spec.key('newer')];
    await redis.hset(invalidated, 'gen', '1');
    await redis.hset(newer, 'gen', '0', 'at', '2000', 'snap', 'kept');
    const args = ['0', '1000', 'a', '0', '1000', 'b', '0', '1000', 'c'];
    expect(await writeSnapshotsIfCurrent(redis, [fresh, invalidated, newer], args)).toEqual([1, 0, 0]);
    expect(await redis.hget(fresh, 'snap')).toBe('a');
    expect(await redis.hget(invalidated, 'snap')).toBeNull();
    expect(await redis.hget(newer, 'snap')).toBe('kept');
  });

  it('of two readers at one generation writing at once, the older observation never overwrites the newer', async () => {
    const [older, newer] = spec.writers(2);
    const snapshot = spec.key('race');
    const answers = await Promise.all([
      writeSnapshotsIfCurrent(older, [snapshot], ['0', '100', 'observed-at-100']),
      writeSnapshotsIfCurrent(newer, [snapshot], ['0', '200', 'observed-at-200']),
    ]);
    expect(answers).toContainEqual([1]);
    expect(await spec.redis().hmget(snapshot, 'at', 'snap')).toEqual(['200', 'observed-at-200']);
  });
});
