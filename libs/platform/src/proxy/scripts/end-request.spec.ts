import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { endRequest } from './proxy-scripts';

describe('end-request.lua', () => {
  const spec = useScriptSpecRedis('end-request');

  it('replicas ending out of order move the last-ended time forward only, to the latest end', async () => {
    const [inFlight, lastEnded] = [spec.key('in-flight'), spec.key('last-ended')];
    await spec.redis().zadd(inFlight, 9999, 'a', 9999, 'b', 9999, 'c');
    const [a, b, c] = spec.writers(3);
    await Promise.all([
      endRequest(a, [inFlight, lastEnded], ['3000', 'a']),
      endRequest(b, [inFlight, lastEnded], ['5000', 'b']),
      endRequest(c, [inFlight, lastEnded], ['4000', 'c']),
    ]);
    expect(await spec.redis().get(lastEnded)).toBe('5000');
    expect(await spec.redis().zcard(inFlight)).toBe(0);
    await endRequest(spec.redis(), [inFlight, lastEnded], ['1000', 'late']);
    expect(await spec.redis().get(lastEnded)).toBe('5000');
  });
});
