import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { saveIdleStatesIfHolder } from './idle-scripts';

describe('save-idle-states-if-holder.lua', () => {
  const spec = useScriptSpecRedis('save-idle-each');

  it('saves each pod only where its lock is the saver’s: a lapsed holder’s pod keeps the new state', async () => {
    const redis = spec.redis();
    const [lockA, stateA, lockB, stateB, lockC, stateC] = ['la', 'sa', 'lb', 'sb', 'lc', 'sc'].map(spec.key);
    await redis.set(lockA, 'tick-1', 'PX', 60_000);
    await redis.set(lockB, 'tick-2', 'PX', 60_000);
    await redis.set(stateB, '{"by":"tick-2"}');
    const keys = [lockA, stateA, lockB, stateB, lockC, stateC];
    const args = ['tick-1', '{"a":1}', 'tick-1', '{"b":1}', 'tick-1', '{"c":1}'];
    expect(await saveIdleStatesIfHolder(redis, keys, args)).toEqual([1, 0, 0]);
    expect(await redis.mget(stateA, stateB, stateC)).toEqual(['{"a":1}', '{"by":"tick-2"}', null]);
  });

  it('of a lapsed holder and the new holder saving at once, only the new holder’s state lands', async () => {
    const [lapsed, holder] = spec.writers(2);
    const [lock, state] = [spec.key('lock'), spec.key('state')];
    await spec.redis().set(lock, 'tick-2', 'PX', 60_000);
    const answers = await Promise.all([
      saveIdleStatesIfHolder(lapsed, [lock, state], ['tick-1', '{"by":"tick-1"}']),
      saveIdleStatesIfHolder(holder, [lock, state], ['tick-2', '{"by":"tick-2"}']),
    ]);
    expect(answers).toEqual([[0], [1]]);
    expect(await spec.redis().get(state)).toBe('{"by":"tick-2"}');
  });
});
