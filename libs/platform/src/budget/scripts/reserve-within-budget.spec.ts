import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { reserveWithinBudget } from './budget-scripts';

const NOW = 1_700_000_000_000;
const TTL_S = 86_400;

describe('reserve-within-budget.lua', () => {
  const spec = useScriptSpecRedis('reserve');
  const keysFor = (day: string) => [
    spec.key(`${day}:open`),
    spec.key(`${day}:spent`),
    spec.key(`${day}:provider`),
  ];
  const reservation = (micros: number, attemptId: string) =>
    JSON.stringify({ micros, pricePerHour: 3.6, at: NOW, attemptId });

  it('two wakes racing for a budget with room for one: exactly one reserves, the other is refused', async () => {
    const keys = keysFor('race');
    const [a, b] = spec.writers(2);
    const answers = await Promise.all([
      reserveWithinBudget(a, keys, [
        'pod-a',
        '600',
        '1000',
        reservation(600, 'wake-a'),
        String(NOW),
        TTL_S,
        'wake-a',
      ]),
      reserveWithinBudget(b, keys, [
        'pod-b',
        '600',
        '1000',
        reservation(600, 'wake-b'),
        String(NOW),
        TTL_S,
        'wake-b',
      ]),
    ]);
    expect(answers.map(([ok]) => ok).sort()).toEqual([0, 1]);
    expect(await spec.redis().hlen(keys[0])).toBe(1);
  });

  it('a re-delivered wake keeps its reservation; a new run of the pod settles the old one at price × time', async () => {
    const redis = spec.redis();
    const keys = keysFor('keep');
    const reserve = (attempt: string, now: number) =>
      reserveWithinBudget(redis, keys, [
        'pod',
        '5000',
        '-1',
        reservation(5000, attempt),
        String(now),
        TTL_S,
        attempt,
      ]);
    expect(await reserve('wake-1', NOW)).toEqual([1, 0, 0, 0, -1]);
    // Same attempt, a second later: kept, not settled (its own 5000 not counted twice).
    expect(await reserve('wake-1', NOW + 1000)).toEqual([1, 0, 0, 1000, -1]);
    // Another attempt two seconds in: the old run is settled at 3.6 $/h × 2 s = 2000 micro-dollars.
    expect(await reserve('wake-2', NOW + 2000)).toEqual([1, 2000, 0, 0, -1]);
    expect(await redis.get(keys[1])).toBe('2000');
  });

  it('judges by RunPod’s billing when it is above the ledger', async () => {
    const redis = spec.redis();
    const keys = keysFor('provider');
    await redis.set(keys[2], '900');
    const answer = await reserveWithinBudget(redis, keys, [
      'pod',
      '200',
      '1000',
      reservation(200, 'w'),
      String(NOW),
      TTL_S,
      'w',
    ]);
    expect(answer).toEqual([0, 0, 0, 0, 900]);
  });
});
