import { Module } from '@nestjs/common';
import type { PodwardenConfig } from '@podwarden/policies';
import { CONFIG, LOGGER } from '../app/app-tokens';
import type { AppLogger } from '../logging/logger';
import { keyedStore } from '../redis/store-providers';
import { ReadyTimes } from './ready-times';
import { StatusPublisher } from './status-publisher';
import { StatusSnapshotStore } from './status-snapshot-store';

/** The shared status snapshot, its publisher (invalidation) and the ready times. */
@Module({
  providers: [
    keyedStore(StatusSnapshotStore),
    {
      provide: StatusPublisher,
      useFactory: (store: StatusSnapshotStore, logger: AppLogger, config: PodwardenConfig) =>
        new StatusPublisher(store, logger, config.tuning.redisWriteTimeoutMs),
      inject: [StatusSnapshotStore, LOGGER, CONFIG],
    },
    keyedStore(ReadyTimes),
  ],
  exports: [StatusSnapshotStore, StatusPublisher, ReadyTimes],
})
export class StatusModule {}
