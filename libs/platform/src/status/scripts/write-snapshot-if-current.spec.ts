import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { writeSnapshotIfCurrent } from './status-scripts';

describe('write-snapshot-if-current.lua', () => {
  const spec = useScriptSpecRedis('write-snapshot');

  it('a read that began before an invalidation (older generation) cannot write its snapshot', async () => {
    const redis = spec.redis();
    const snapshot = spec.key('stale-gen');
    await redis.hincrby(snapshot, 'gen', 1);
    expect(await writeSnapshotIfCurrent(redis, [snapshot], ['0', '100', 'before-stop'])).toBe(0);
    expect(await writeSnapshotIfCurrent(redis, [snapshot], ['1', '100', 'after-stop'])).toBe(1);
    expect(await redis.hget(snapshot, 'snap')).toBe('after-stop');
  });

  it('of two readers at one generation writing at once, the older observation never overwrites the newer', async () => {
    const [older, newer] = spec.writers(2);
    const snapshot = spec.key('race');
    const answers = await Promise.all([
      writeSnapshotIfCurrent(older, [snapshot], ['0', '100', 'observed-at-100']),
      writeSnapshotIfCurrent(newer, [snapshot], ['0', '200', 'observed-at-200']),
    ]);
    expect(answers).toContain(1);
    expect(await spec.redis().hmget(snapshot, 'at', 'snap')).toEqual(['200', 'observed-at-200']);
  });
});
