import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { QueueEvents } from 'bullmq';
import type Redis from 'ioredis';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  LOGGER,
  WAKE_QUEUE,
  createRedis,
  errorMessage,
  withinTimeout,
  type AppLogger,
} from '@podwarden/platform';
import { releaseConnection } from '../queues/release-connection';

/**
 * The one QueueEvents of the `wake` queue that every waiting start request
 * listens on (`job.waitUntilFinished`): one blocking connection per gateway,
 * not one per request. It is handed a connection of ours because a
 * QueueEvents whose connection never came up cannot be closed until Redis
 * answers; ours stops reconnecting at shutdown, so SIGTERM during an outage ends.
 */
@Injectable()
export class WakeQueueEvents implements BeforeApplicationShutdown, OnApplicationShutdown {
  readonly events: QueueEvents;
  private readonly connection: Redis;
  private stopping = false;

  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) logger: AppLogger,
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
