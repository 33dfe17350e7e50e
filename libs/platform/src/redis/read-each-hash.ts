import type Redis from 'ioredis';
import readEachHashLua from './scripts/read-each-hash.lua';
import { redisScript } from './redis-script';

/** Keys: hashes. Args: a field (HGET of each) or none (HGETALL of each, flat). */
const readEachHash = redisScript<(string | null | string[])[]>({
  name: 'read-each-hash',
  numberOfKeys: 'each',
  lua: readEachHashLua,
});

/** One field of each hash, in one command (null where the hash or field is missing). */
export async function hgetEach(
  redis: Redis,
  keys: readonly string[],
  field: string,
): Promise<(string | null)[]> {
  return (await readEachHash(redis, keys, [field])) as (string | null)[];
}

/** Every hash whole, in one command: as HGETALL answers each. */
export async function hgetallEach(redis: Redis, keys: readonly string[]): Promise<Record<string, string>[]> {
  const replies = (await readEachHash(redis, keys, [])) as string[][];
  return replies.map((flat) => {
    const hash: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) hash[flat[i]] = flat[i + 1];
    return hash;
  });
}
