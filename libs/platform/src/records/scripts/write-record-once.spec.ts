import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { writeRecord } from '../record-script';

describe('write-record-once.lua', () => {
  const spec = useScriptSpecRedis('write-record');
  const stream = () => spec.key('stream');
  const intents = () => spec.key('intents');

  it('ten retries of one record at once append it once: one recorded, the rest dup', async () => {
    const writers = spec.writers(10);
    const write = { streamKey: stream(), writtenKey: spec.key('written:r1'), entryJson: '{"id":"r1"}' };
    const answers = await Promise.all(writers.map((redis) => writeRecord(redis, write)));
    expect(answers.filter((a) => a === 'recorded')).toHaveLength(1);
    expect(answers.filter((a) => a === 'dup')).toHaveLength(9);
    expect(await spec.redis().xlen(stream())).toBe(1);
  });

  it('a late answer and a reconcile claiming one intent at once: exactly one records, the intent closes', async () => {
    const redis = spec.redis();
    await redis.hset(intents(), 'intent-1', '{"id":"intent-1"}');
    const claim = (recordId: string) => ({
      streamKey: stream(),
      writtenKey: spec.key(`written:${recordId}`),
      entryJson: JSON.stringify({ recordId }),
      intent: {
        mode: 'claim' as const,
        hashKey: intents(),
        closedKey: spec.key('closed:intent-1'),
        id: 'intent-1',
      },
    });
    const [late, reconcile] = spec.writers(2);
    const before = await redis.xlen(stream());
    const answers = await Promise.all([
      writeRecord(late, claim('late')),
      writeRecord(reconcile, claim('reconcile')),
    ]);
    expect(answers.sort()).toEqual(['claimed-elsewhere', 'recorded']);
    expect(await redis.xlen(stream())).toBe(before + 1);
    expect(await redis.hexists(intents(), 'intent-1')).toBe(0);
  });
});
