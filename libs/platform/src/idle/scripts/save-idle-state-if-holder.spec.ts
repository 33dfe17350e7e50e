import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { saveIdleStateIfHolder } from './idle-scripts';

describe('save-idle-state-if-holder.lua', () => {
  const spec = useScriptSpecRedis('save-idle');

  it('of a lapsed holder and the new holder saving at once, only the new holder’s state lands', async () => {
    const [lapsed, holder] = spec.writers(2);
    const [lock, state] = [spec.key('lock'), spec.key('state')];
    await spec.redis().set(lock, 'tick-2', 'PX', 60_000);
    const answers = await Promise.all([
      saveIdleStateIfHolder(lapsed, [lock, state], ['tick-1', '{"by":"tick-1"}']),
      saveIdleStateIfHolder(holder, [lock, state], ['tick-2', '{"by":"tick-2"}']),
    ]);
    expect(answers).toEqual([0, 1]);
    expect(await spec.redis().get(state)).toBe('{"by":"tick-2"}');
  });

  it('with no lock at all, nothing is saved', async () => {
    const [lock, state] = [spec.key('no-lock'), spec.key('no-state')];
    expect(await saveIdleStateIfHolder(spec.redis(), [lock, state], ['tick-1', '{}'])).toBe(0);
    expect(await spec.redis().exists(state)).toBe(0);
  });
});
