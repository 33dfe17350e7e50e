import { createHash } from 'node:crypto';
import type Redis from 'ioredis';

/** A Lua script under a name that says what it guarantees; its keys come first, then its arguments. */
export interface RedisScriptSource {
  readonly name: string;
  /** 'each': one key per item (or a fixed group per item), as many as the call has. */
  readonly numberOfKeys: number | 'each';
  readonly lua: string;
}

/** Runs the script on a connection: EVALSHA, falling back to EVAL once after a NOSCRIPT. */
export type RedisScript<Result> = (
  redis: Redis,
  keys: readonly string[],
  args: readonly (string | number)[],
) => Promise<Result>;

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/**
 * One script, sent by its SHA (EVAL loads it when the server does not hold it). Not ioredis's
 * defineCommand: defined lazily on an auto-pipelining client it misaligns the batch's replies.
 */
export function redisScript<Result>(source: RedisScriptSource): RedisScript<Result> {
  const sha = createHash('sha1').update(source.lua).digest('hex');
  return async (redis, keys, args) => {
    const count = source.numberOfKeys === 'each' ? keys.length : source.numberOfKeys;
    if (keys.length !== count) {
      throw new Error(`${source.name} takes ${source.numberOfKeys} keys, got ${keys.length}`);
    }
    try {
      return (await redis.evalsha(sha, count, ...keys, ...args)) as Result;
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return (await redis.eval(source.lua, count, ...keys, ...args)) as Result;
    }
  };
}
