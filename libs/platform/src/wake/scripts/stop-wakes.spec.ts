import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { checkFence, claimGate, stopWakes } from './wake-scripts';

describe('stop-wakes.lua', () => {
  const spec = useScriptSpecRedis('stop-wakes');

  it('takes the gate away with a token above every claim, so the run that held it reads stopped', async () => {
    const redis = spec.redis();
    const [gate, fence, stopped] = [spec.key('gate'), spec.key('fence'), spec.key('stopped')];
    const [, token] = await claimGate(redis, [gate, fence, spec.key('first')], ['job', 60_000, 86_400]);
    const stopToken = await stopWakes(redis, [gate, fence, stopped], [86_400]);
    expect(stopToken).toBe(Number(token) + 1);
    expect(await redis.exists(gate)).toBe(0);
    expect(await checkFence(redis, [gate, stopped], [`job#${token}`, token])).toBe(2);
  });

  it('racing a claim, the claim either is stopped or comes after the stop and holds, never both undone', async () => {
    for (let round = 0; round < 20; round++) {
      const [claimer, stopper] = spec.writers(2);
      const keys = [spec.key(`gate-${round}`), spec.key(`fence-${round}`), spec.key(`stopped-${round}`)];
      const [[acquired, token, first]] = await Promise.all([
        claimGate(claimer, [keys[0], keys[1], spec.key(`first-${round}`)], ['job', 60_000, 86_400]),
        stopWakes(stopper, keys, [86_400]),
      ]);
      expect(acquired).toBe(1);
      const state = await checkFence(spec.redis(), [keys[0], keys[2]], [`job#${token}`, first ?? '']);
      // Claimed before the stop: fenced (stopped). After it: the gate is the claimer's, unfenced.
      expect(state).toBe(Number(token) === 1 ? 2 : 1);
    }
  });
});
