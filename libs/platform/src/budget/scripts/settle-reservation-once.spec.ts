import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { settleReservationOnce } from './budget-scripts';

describe('settle-reservation-once.lua', () => {
  const spec = useScriptSpecRedis('settle');

  it('five replicas settling one pod’s run at once add it to the day’s spend exactly once', async () => {
    const [open, spent] = [spec.key('open'), spec.key('spent')];
    await spec.redis().hset(open, 'pod', '{"micros":9000}');
    const answers = await Promise.all(
      spec.writers(5).map((redis) => settleReservationOnce(redis, [open, spent], ['pod', '1234', 86_400])),
    );
    expect(answers.filter((a) => a === 1)).toHaveLength(1);
    expect(await spec.redis().get(spent)).toBe('1234');
    expect(await spec.redis().ttl(spent)).toBeGreaterThan(0);
  });
});
