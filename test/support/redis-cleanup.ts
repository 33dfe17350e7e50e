import Redis from 'ioredis';
import { REDIS_URL } from './test-env';

/**
 * Deletes every key under a test prefix (BullMQ's and ours) on the given
 * connection. SCAN, never KEYS or FLUSH: the Redis is shared with other test
 * files and a developer's running stack. The one cleanup every harness uses.
 */
export async function deleteKeysUnder(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) deleted += await redis.del(...keys);
  } while (cursor !== '0');
  return deleted;
}

/** The same, on a connection of its own. */
export async function deletePrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    await deleteKeysUnder(redis, prefix);
  } finally {
    redis.disconnect();
  }
}
