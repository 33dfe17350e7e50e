import { Module } from '@nestjs/common';
import type Redis from 'ioredis';
import type { PodwardenConfig } from '@podwarden/policies';
import { CONFIG, REDIS, REDIS_KEYS } from '../app/app-tokens';
import type { RedisKeys } from '../redis/redis-keys';
import { keyedStore } from '../redis/store-providers';
import { RhythmStore } from './rhythm-store';
import { UsageStore } from './usage-store';

/** Each pod's usage record and the rhythm (and pre-wakes) learnt from it. */
@Module({
  providers: [
    {
      provide: UsageStore,
      useFactory: (redis: Redis, keys: RedisKeys, config: PodwardenConfig) =>
        new UsageStore(redis, keys, config.rhythm.usageRetentionDays),
      inject: [REDIS, REDIS_KEYS, CONFIG],
    },
    keyedStore(RhythmStore),
  ],
  exports: [UsageStore, RhythmStore],
})
export class UsageModule {}
