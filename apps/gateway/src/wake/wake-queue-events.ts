import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { QueueEvents, type Queue } from 'bullmq';
import type Redis from 'ioredis';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  JobFinishWaiter,
  LOGGER,
  WAKE_QUEUE,
  createRedis,
  errorMessage,
  withinTimeout,
  type AppLogger,
} from '@podwarden/platform';
import { releaseConnection } from '../queues/release-connection';

/**
 * The one QueueEvents of the `wake` queue every waiting start listens on: one blocking connection per
 * gateway, not per request. It gets a connection of ours, which stops reconnecting at shutdown, so a
 * SIGTERM during an outage still ends (BullMQ's own could not be closed until Redis answered).
 */
@Injectable()
export class WakeQueueEvents implements BeforeApplicationShutdown, OnApplicationShutdown {
  readonly events: QueueEvents;
  readonly finishes: JobFinishWaiter;
  private readonly connection: Redis;
  private stopping = false;

  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) logger: AppLogger,
    @InjectQueue(WAKE_QUEUE) queue: Queue,
  ) {
    // XREAD blocks, so this is the worker-style connection (no per-command retry limit).
    this.connection = createRedis(config.redis, 'worker');
    // QueueEvents duplicates the connection it is handed, and the duplicate copies this option.
    const retry = this.connection.options.retryStrategy;
    this.connection.options.retryStrategy = (times: number) =>
      this.stopping ? null : (retry?.(times) ?? null);
    this.events = new QueueEvents(WAKE_QUEUE, { connection: this.connection, prefix: config.redis.prefix });
    // A Redis outage surfaces per request as a 503; an unhandled 'error' event would crash the process.
    this.events.on('error', (error) =>
      logger.warn({ err: errorMessage(error) }, 'wake queue events connection error'),
    );
    this.finishes = new JobFinishWaiter(queue, this.events);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    const waitMs = this.config.tuning.redisWriteTimeoutMs;
    await Promise.all([
      releaseConnection(this.events.backend.client, waitMs),
      releaseConnection(Promise.resolve(this.connection), waitMs),
    ]);
  }

  async onApplicationShutdown(): Promise<void> {
    const waitMs = this.config.tuning.redisWriteTimeoutMs;
    await withinTimeout(this.events.close(), waitMs, 'queue events close').catch(() => undefined);
    if (this.connection.status === 'ready') {
      await withinTimeout(this.connection.quit(), waitMs, 'redis quit').catch(() =>
        this.connection.disconnect(),
      );
    }
  }
}
