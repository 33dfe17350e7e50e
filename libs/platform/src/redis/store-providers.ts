import type { Provider } from '@nestjs/common';
import type Redis from 'ioredis';
import type { PodwardenConfig } from '@podwarden/policies';
import { CONFIG, LOGGER, REDIS, REDIS_KEYS } from '../app/app-tokens';
import type { AppLogger } from '../logging/logger';
import { RedisClock, type SharedClock } from './redis-clock';
import type { RedisKeys } from './redis-keys';

/** A Redis store that needs only the connection and the key namespace. */
export function keyedStore<T>(store: new (redis: Redis, keys: RedisKeys) => T): Provider {
  return {
    provide: store,
    useFactory: (redis: Redis, keys: RedisKeys) => new store(redis, keys),
    inject: [REDIS, REDIS_KEYS],
  };
}

/** A Redis store whose times are judged on the shared clock (Redis's). */
export function clockedStore<T>(
  store: new (redis: Redis, keys: RedisKeys, clock: SharedClock) => T,
): Provider {
  return {
    provide: store,
    useFactory: (redis: Redis, keys: RedisKeys) => new store(redis, keys, new RedisClock(redis)),
    inject: [REDIS, REDIS_KEYS],
  };
}

/** A Redis store that also logs what it could not write, within the configured write timeout. */
export function loggedStore<T>(
  store: new (redis: Redis, keys: RedisKeys, logger: AppLogger, writeTimeoutMs: number) => T,
): Provider {
  return {
    provide: store,
    useFactory: (redis: Redis, keys: RedisKeys, logger: AppLogger, config: PodwardenConfig) =>
      new store(redis, keys, logger, config.tuning.redisWriteTimeoutMs),
    inject: [REDIS, REDIS_KEYS, LOGGER, CONFIG],
  };
}
