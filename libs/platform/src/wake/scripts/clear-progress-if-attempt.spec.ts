import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { clearProgressIfAttempt } from './wake-scripts';

describe('clear-progress-if-attempt.lua', () => {
  const spec = useScriptSpecRedis('clear-progress');

  it('an older attempt finishing late leaves the newer attempt’s progress in place', async () => {
    const redis = spec.redis();
    const progress = spec.key('progress');
    await redis.set(progress, JSON.stringify({ attemptId: 'newer', phase: 'starting' }));
    expect(await clearProgressIfAttempt(redis, [progress], ['older'])).toBe(0);
    expect(await redis.exists(progress)).toBe(1);
    expect(await clearProgressIfAttempt(redis, [progress], ['newer'])).toBe(1);
    expect(await redis.exists(progress)).toBe(0);
    expect(await clearProgressIfAttempt(redis, [progress], ['newer'])).toBe(0);
  });
});
