import Redis from 'ioredis';

/**
 * One ioredis connection. BullMQ workers and blocking calls need
 * maxRetriesPerRequest null (they would otherwise fail on a short Redis blip);
 * request/response paths (HTTP handlers, health) want a bounded retry so a dead
 * Redis answers an error instead of hanging the caller.
 */
export function createRedis(url: string, purpose: 'worker' | 'request'): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: purpose === 'worker' ? null : 2,
    enableReadyCheck: true,
    lazyConnect: false,
    connectTimeout: 5000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
}
