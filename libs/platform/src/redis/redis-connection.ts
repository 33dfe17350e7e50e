import Redis, { type RedisOptions } from 'ioredis';
import { isShuttingDown } from '../app/shutdown-state';

/** Capped back-off while running; none once shutting down (see shutdown-state). */
export function reconnectDelay(times: number): number | null {
  return isShuttingDown() ? null : Math.min(times * 200, 2000);
}

/**
 * What every connection to Redis shares, whoever opens it (our stores, or
 * BullMQ's queues and workers): a bounded connect and a capped reconnect
 * back-off. REDIS_URL has already been checked by the config policy.
 */
export const REDIS_CONNECTION_OPTIONS = {
  enableReadyCheck: true,
  connectTimeout: 5000,
  retryStrategy: reconnectDelay,
} as const satisfies RedisOptions;

/**
 * One ioredis connection. BullMQ workers and blocking calls need
 * maxRetriesPerRequest null (they would otherwise fail on a short Redis blip);
 * request/response paths (HTTP handlers, health) want a bounded retry so a dead
 * Redis answers an error instead of hanging the caller.
 */
export function createRedis(url: string, purpose: 'worker' | 'request'): Redis {
  const redis = new Redis(url, {
    ...REDIS_CONNECTION_OPTIONS,
    maxRetriesPerRequest: purpose === 'worker' ? null : 2,
    lazyConnect: false,
  });
  // Each command reports its own failure; an unheard 'error' event would only print a stack trace.
  redis.on('error', () => undefined);
  return redis;
}
