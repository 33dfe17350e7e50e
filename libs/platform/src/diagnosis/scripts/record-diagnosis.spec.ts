import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { recordDiagnosis } from './diagnosis-scripts';

const entry = (podId: string, kind: string, n: number): string => JSON.stringify({ podId, kind, n });

describe('record-diagnosis.lua', () => {
  const spec = useScriptSpecRedis('record-diagnosis');

  it('the same finding repeated replaces the newest entry; another pod or kind is a new one', async () => {
    const redis = spec.redis();
    const list = spec.key('repeat');
    expect(await recordDiagnosis(redis, [list], [entry('p1', 'oom', 1), 'p1', 'oom', '49'])).toBe(1);
    expect(await recordDiagnosis(redis, [list], [entry('p1', 'oom', 2), 'p1', 'oom', '49'])).toBe(0);
    expect(await recordDiagnosis(redis, [list], [entry('p1', 'crash', 3), 'p1', 'crash', '49'])).toBe(1);
    expect(await recordDiagnosis(redis, [list], [entry('p2', 'crash', 4), 'p2', 'crash', '49'])).toBe(1);
    expect(await redis.lrange(list, 0, -1)).toEqual([
      entry('p2', 'crash', 4),
      entry('p1', 'crash', 3),
      entry('p1', 'oom', 2),
    ]);
  });

  it('ten ticks recording the same finding at once leave one entry; the list stays capped', async () => {
    const list = spec.key('race');
    const writers = spec.writers(10);
    const added = await Promise.all(
      writers.map((r, i) => recordDiagnosis(r, [list], [entry('p1', 'oom', i), 'p1', 'oom', '2'])),
    );
    expect(added.filter((a) => a === 1)).toHaveLength(1);
    expect(await spec.redis().llen(list)).toBe(1);
    for (let i = 0; i < 5; i++)
      await recordDiagnosis(spec.redis(), [list], [entry(`p${i}`, 'x', i), `p${i}`, 'x', '2']);
    expect(await spec.redis().llen(list)).toBe(3);
  });
});
