import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { checkFence, claimGate, stopWakes } from './wake-scripts';

const HELD = 1;
const STOPPED = 2;
const LOST = 0;

describe('check-fence.lua', () => {
  const spec = useScriptSpecRedis('check-fence');
  const gate = spec.key('gate');
  const fence = spec.key('fence');
  const stopped = spec.key('stopped');
  const claim = (attempt: string) =>
    claimGate(spec.redis(), [gate, fence, spec.key(`first:${attempt}`)], [attempt, 60_000, 86_400]);

  it('a run with a stale token is refused; the current token holds; a stop fences the attempt', async () => {
    const redis = spec.redis();
    const [, first] = await claim('job');
    const [, second] = await claim('job');
    expect(await checkFence(redis, [gate, stopped], [`job#${first}`, first])).toBe(LOST);
    expect(await checkFence(redis, [gate, stopped], [`job#${second}`, first])).toBe(HELD);

    await stopWakes(redis, [gate, fence, stopped], [86_400]);
    const [, redelivered] = await claim('job');
    expect(await checkFence(redis, [gate, stopped], [`job#${redelivered}`, first])).toBe(STOPPED);

    await redis.del(gate);
    const [, fresh, freshFirst] = await claim('after-stop');
    expect(await checkFence(redis, [gate, stopped], [`after-stop#${fresh}`, freshFirst ?? ''])).toBe(HELD);
  });
});
