// The jest globals for useTestRedis: this lib's own tsconfig (tsconfig.lib.json) types only node.
/// <reference types="jest" />
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';

/**
 * The one way tests reach Redis: a real server (BullMQ runs Lua scripts; a
 * mock would lie), each test file under a key prefix of its own so parallel
 * files and a developer's running stack never collide.
 */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other test file, run or developer stack shares. */
export function uniqueTestPrefix(name: string): string {
  return `pwtest-${name}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

export function connectTestRedis(url: string = TEST_REDIS_URL): Redis {
  return new Redis(url, { maxRetriesPerRequest: 2 });
}

/**
 * Deletes every key under a test prefix (BullMQ's and ours). SCAN, never KEYS
 * or FLUSH: the Redis is shared with other test files and a developer's stack.
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
export async function deletePrefix(prefix: string, url: string = TEST_REDIS_URL): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    await deleteKeysUnder(redis, prefix);
  } finally {
    redis.disconnect();
  }
}

export interface UseTestRedisOptions {
  /** Delete the prefix only after all tests: tests that build on an earlier test's keys. */
  readonly keepKeysBetweenTests?: boolean;
  /** Wrap the prefix in `{...}`: every key then hashes to one cluster slot, as a multi-key script needs. */
  readonly hashTagged?: boolean;
}

export interface TestRedis {
  /** The spec file's connection, open from beforeAll to afterAll (read it inside tests and hooks). */
  readonly redis: Redis;
  /** The spec file's key prefix, known at once (for module-level RedisKeys). */
  readonly prefix: string;
}

/**
 * A real Redis for one spec file: its own key prefix, keys deleted after each test (or only at the end),
 * the connection closed after all. Hooks land in the calling block; a spec's teardown that must run first
 * (workers still writing) goes in a nested describe, whose afterEach/afterAll jest runs before these.
 */
export function useTestRedis(name: string, options: UseTestRedisOptions = {}): TestRedis {
  const unique = uniqueTestPrefix(name);
  const prefix = options.hashTagged ? `{${unique}}` : unique;
  let redis: Redis | null = null;
  const connected = (): Redis => {
    if (redis === null) throw new Error(`useTestRedis('${name}'): the connection opens in beforeAll`);
    return redis;
  };
  beforeAll(() => {
    redis = connectTestRedis();
  });
  if (!options.keepKeysBetweenTests) {
    afterEach(async () => {
      await deleteKeysUnder(connected(), prefix);
    });
  }
  afterAll(async () => {
    if (redis === null) return;
    await deleteKeysUnder(redis, prefix);
    await redis.quit();
  });
  return {
    prefix,
    get redis(): Redis {
      return connected();
    },
  };
}
