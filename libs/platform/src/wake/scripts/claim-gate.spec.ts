import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { claimGate } from './wake-scripts';

const DAY_S = 86_400;

describe('claim-gate.lua', () => {
  const spec = useScriptSpecRedis('claim-gate');
  const keysFor = (volume: string, attempt: string): string[] => [
    spec.key(`${volume}:gate`),
    spec.key(`${volume}:fence`),
    spec.key(`first:${attempt}`),
  ];

  it('of ten attempts claiming one volume at once, exactly one takes the gate; the others see it', async () => {
    const writers = spec.writers(10);
    const answers = await Promise.all(
      writers.map((redis, i) =>
        claimGate(redis, keysFor('race', `attempt-${i}`), [`attempt-${i}`, 60_000, DAY_S]),
      ),
    );
    const winners = answers.filter(([acquired]) => acquired === 1);
    expect(winners).toHaveLength(1);
    const winner = `attempt-${answers.findIndex(([acquired]) => acquired === 1)}`;
    expect(await spec.redis().get(spec.key('race:gate'))).toBe(`${winner}#1`);
    for (const [acquired, value] of answers.filter(([a]) => a === 0)) {
      expect([acquired, value]).toEqual([0, `${winner}#1`]);
    }
  });

  it('the same attempt re-claims with a new token and keeps its first; a lapsed gate goes to the next', async () => {
    const redis = spec.redis();
    expect(await claimGate(redis, keysFor('again', 'a'), ['a', 60_000, DAY_S])).toEqual([1, '1', '1']);
    expect(await claimGate(redis, keysFor('again', 'a'), ['a', 60_000, DAY_S])).toEqual([1, '2', '1']);
    expect(await claimGate(redis, keysFor('again', 'ab'), ['ab', 60_000, DAY_S])).toEqual([0, 'a#2']);
    await redis.del(spec.key('again:gate'));
    expect(await claimGate(redis, keysFor('again', 'ab'), ['ab', 60_000, DAY_S])).toEqual([1, '3', '3']);
  });
});
