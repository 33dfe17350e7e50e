import { Module } from '@nestjs/common';
import type Redis from 'ioredis';
import type { PodwardenConfig } from '@podwarden/policies';
import { CONFIG, REDIS, REDIS_KEYS } from '../app/app-tokens';
import type { RedisKeys } from '../redis/redis-keys';
import { keyedStore } from '../redis/store-providers';
import { WakeGate } from './wake-gate';
import { WakeProgressStore } from './wake-progress';

/** The wake gate (one wake per volume, its fence) and the in-flight wake's progress. */
@Module({
  providers: [
    {
      provide: WakeGate,
      useFactory: (redis: Redis, keys: RedisKeys, config: PodwardenConfig) =>
        new WakeGate(redis, keys, config.tuning.keepCompletedJobsSeconds),
      inject: [REDIS, REDIS_KEYS, CONFIG],
    },
    keyedStore(WakeProgressStore),
  ],
  exports: [WakeGate, WakeProgressStore],
})
export class WakeModule {}
