import Redis from 'ioredis';

export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other test file or developer stack shares. */
export function uniqueTestPrefix(name: string): string {
  return `pw-test-${name}-${process.pid}-${Date.now()}`;
}

export function connectTestRedis(): Redis {
  return new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false });
}
