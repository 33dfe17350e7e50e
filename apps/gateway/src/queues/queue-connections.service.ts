import { Inject, Injectable, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  IDLE_TICK_QUEUE,
  LOGGER,
  WAKE_QUEUE,
  errorMessage,
  type AppLogger,
} from '@podwarden/platform';
import { releaseConnection } from './release-connection';

/**
 * The gateway's queues through a Redis outage: a connection error is logged, never thrown (unheard, it
 * would crash the process; the outage is a 503 per request), and each connection is released before
 * BullMQ closes it, so SIGTERM still ends.
 */
@Injectable()
export class QueueConnectionsService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly queues: readonly Queue[];

  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    @InjectQueue(WAKE_QUEUE) wakeQueue: Queue,
    @InjectQueue(IDLE_TICK_QUEUE) idleTickQueue: Queue,
  ) {
    this.queues = [wakeQueue, idleTickQueue];
  }

  onModuleInit(): void {
    for (const queue of this.queues) {
      queue.on('error', (error) =>
        this.logger.warn({ queue: queue.name, err: errorMessage(error) }, 'queue connection error'),
      );
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    const waitMs = this.config.tuning.redisWriteTimeoutMs;
    await Promise.all(this.queues.map((queue) => releaseConnection(queue.backend.client, waitMs)));
  }
}
