import Redis from 'ioredis';

export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other test file or developer stack shares. */
export function uniqueTestPrefix(name: string): string {
  return `pw-test-${name}-${process.pid}-${Date.now()}`;
}

export function connectTestRedis(): Redis {
  return new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false });
}

/** Deletes every key under the prefix (SCAN, never KEYS or FLUSH: the Redis may be shared). */
export async function deleteKeysUnder(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 200);
    cursor = next;
    if (keys.length > 0) deleted += await redis.del(...keys);
  } while (cursor !== '0');
  return deleted;
}
