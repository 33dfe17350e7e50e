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
});
