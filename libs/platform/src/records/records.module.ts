import { Module } from '@nestjs/common';
import type Redis from 'ioredis';
import type { PodwardenConfig } from '@podwarden/policies';
import { CONFIG, LOGGER, REDIS, REDIS_KEYS } from '../app/app-tokens';
import type { AppLogger } from '../logging/logger';
import type { RedisKeys } from '../redis/redis-keys';
import { keyedStore, loggedStore } from '../redis/store-providers';
import { StatusModule } from '../status/status.module';
import { StatusPublisher } from '../status/status-publisher';
import { ActionLog } from './action-log';
import { BillableIntents } from './billable-intents';
import { ReadyLog } from './ready-log';
import { WakeHistory } from './wake-history';

/** The durable records: the action log, the wake history, the ready log and the billable intents. */
@Module({
  imports: [StatusModule],
  providers: [
    {
      // Every billable call is recorded here, in every app: so every write also invalidates the status snapshot.
      provide: ActionLog,
      useFactory: (
        redis: Redis,
        keys: RedisKeys,
        logger: AppLogger,
        config: PodwardenConfig,
        status: StatusPublisher,
      ) =>
        new ActionLog(redis, keys, logger, config.tuning.redisWriteTimeoutMs, (podName) =>
          status.invalidate(podName),
        ),
      inject: [REDIS, REDIS_KEYS, LOGGER, CONFIG, StatusPublisher],
    },
    loggedStore(WakeHistory),
    loggedStore(ReadyLog),
    keyedStore(BillableIntents),
  ],
  exports: [ActionLog, WakeHistory, ReadyLog, BillableIntents],
})
export class RecordsModule {}
