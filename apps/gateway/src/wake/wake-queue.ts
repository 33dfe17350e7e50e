import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Queue, QueueEvents } from 'bullmq';
import type Redis from 'ioredis';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  LOGGER,
  WAKE_QUEUE,
  createRedis,
  type AppLogger,
  type WakeJobData,
  type WakeJobResult,
} from '@podwarden/platform';

/**
 * The gateway's handle on the `wake` queue: a producer Queue and one shared
 * QueueEvents that every waiting start request listens on. The connections
 * are ours (BullMQ never closes a connection it was handed), so we close them.
 */
@Injectable()
export class WakeQueue implements OnApplicationShutdown {
  readonly queue: Queue<WakeJobData, WakeJobResult>;
  readonly events: QueueEvents;
  private readonly queueConnection: Redis;
  private readonly eventsConnection: Redis;

  constructor(@Inject(CONFIG) config: PodwardenConfig, @Inject(LOGGER) logger: AppLogger) {
    this.queueConnection = createRedis(config.redis.url, 'request');
    // QueueEvents blocks on XREAD, which needs the worker-style connection (no retry limit).
    this.eventsConnection = createRedis(config.redis.url, 'worker');
    this.queue = new Queue<WakeJobData, WakeJobResult>(WAKE_QUEUE, {
      connection: this.queueConnection,
      prefix: config.redis.prefix,
    });
    this.events = new QueueEvents(WAKE_QUEUE, {
      connection: this.eventsConnection,
      prefix: config.redis.prefix,
    });
    // A Redis outage surfaces per request as a 503; an unhandled 'error' event would crash the process.
    this.queue.on('error', (error) => logger.warn({ err: error.message }, 'wake queue connection error'));
    this.events.on('error', (error) =>
      logger.warn({ err: error.message }, 'wake queue events connection error'),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([this.events.close(), this.queue.close()]);
    for (const connection of [this.eventsConnection, this.queueConnection]) {
      await connection.quit().catch(() => connection.disconnect());
    }
  }
}
