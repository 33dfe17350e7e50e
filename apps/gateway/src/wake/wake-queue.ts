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
  withinTimeout,
} from '@podwarden/platform';

const CLOSE_TIMEOUT_MS = 2_000;

/**
 * A createRedis connection whose reconnect loop ends once `stopped()` says so.
 * QueueEvents duplicates its connection and the duplicate copies these
 * options: without this, a shutdown during a Redis outage leaves that
 * duplicate reconnecting forever and the process never exits on its own.
 */
function stoppableRedis(url: string, purpose: 'worker' | 'request', stopped: () => boolean): Redis {
  const connection = createRedis(url, purpose);
  const retry = connection.options.retryStrategy;
  connection.options.retryStrategy = (times: number) => (stopped() ? null : (retry?.(times) ?? null));
  return connection;
}

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
  private stopping = false;

  constructor(@Inject(CONFIG) config: PodwardenConfig, @Inject(LOGGER) logger: AppLogger) {
    const stopped = (): boolean => this.stopping;
    this.queueConnection = stoppableRedis(config.redis.url, 'request', stopped);
    // QueueEvents blocks on XREAD, which needs the worker-style connection (no retry limit).
    this.eventsConnection = stoppableRedis(config.redis.url, 'worker', stopped);
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

  /**
   * With Redis unreachable, close() and QUIT would wait for a reconnect that
   * never comes: such connections are dropped first, and every wait is bounded.
   */
  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    const connections = [this.eventsConnection, this.queueConnection];
    for (const connection of connections) if (connection.status !== 'ready') connection.disconnect();
    await withinTimeout(
      Promise.allSettled([this.events.close(), this.queue.close()]),
      CLOSE_TIMEOUT_MS,
      'queue close',
    ).catch(() => undefined);
    for (const connection of connections) {
      if (connection.status === 'ready') {
        await withinTimeout(connection.quit(), CLOSE_TIMEOUT_MS, 'redis quit').catch(() =>
          connection.disconnect(),
        );
      }
    }
  }
}
