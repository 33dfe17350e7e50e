import { createHash, randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { TEST_REDIS_URL } from '@podwarden/testing';
import { redisScript } from './redis-script';
import { useScriptSpecRedis } from './testing/script-spec-redis';

const LUA = "return redis.call('INCRBY', KEYS[1], ARGV[1])";
const incrementBy = redisScript<number>({ name: 'spec-increment-by', numberOfKeys: 1, lua: LUA });

/** A script the server has never seen: a comment no other run shares. */
function freshScript(): { lua: string; sha: string; run: ReturnType<typeof redisScript<number>> } {
  const lua = `-- ${randomUUID()}\n${LUA}`;
  const sha = createHash('sha1').update(lua).digest('hex');
  return { lua, sha, run: redisScript<number>({ name: 'spec-fresh', numberOfKeys: 1, lua }) };
}

describe(redisScript.name, () => {
  const spec = useScriptSpecRedis('redis-script');

  it('runs a script the server does not hold (NOSCRIPT, then EVAL), and by its SHA once it is cached', async () => {
    const redis = spec.redis();
    const { sha, run } = freshScript();
    const counter = spec.key('counter');
    expect(await redis.script('EXISTS', sha)).toEqual([0]);
    const evalsha = jest.spyOn(redis, 'evalsha');
    const evalCalls = jest.spyOn(redis, 'eval');
    expect(await run(redis, [counter], [2])).toBe(2);
    expect(await redis.script('EXISTS', sha)).toEqual([1]);
    expect(await run(redis, [counter], [3])).toBe(5);
    expect(evalsha).toHaveBeenCalledTimes(2);
    expect(evalCalls).toHaveBeenCalledTimes(1);
  });

  it('works on every connection it is given', async () => {
    const [a, b] = spec.writers(2);
    const counter = spec.key('shared');
    await Promise.all([incrementBy(a, [counter], [1]), incrementBy(b, [counter], [1])]);
    expect(await spec.redis().get(counter)).toBe('2');
  });

  // ioredis's auto-pipelining lost its reply order (an uncaught "results[i] is not iterable" that killed
  // the idle monitor) when a command was defined on a client after a batch had started in the same turn.
  it('is safe on an auto-pipelining connection, batched with other commands in the same turn', async () => {
    const redis = new Redis(TEST_REDIS_URL, { enableAutoPipelining: true, maxRetriesPerRequest: 2 });
    try {
      const counter = spec.key('batched');
      const { run } = freshScript();
      // The fresh script's NOSCRIPT sends it again after the batch, so only the sum is fixed.
      const [before, ...increments] = await Promise.all([
        redis.get(counter),
        run(redis, [counter], [1]),
        incrementBy(redis, [counter], [10]),
        redis.incr(counter),
      ]);
      expect(before).toBeNull();
      expect(Math.max(...increments)).toBe(12);
      expect(await redis.get(counter)).toBe('12');
    } finally {
      redis.disconnect();
    }
  });

  it('refuses a call with the wrong number of keys before reaching Redis', async () => {
    await expect(incrementBy(spec.redis(), [], [1])).rejects.toThrow('spec-increment-by takes 1 keys, got 0');
  });
});
