import type Redis from 'ioredis';
import { DEFAULTS, type RunReadyEdge } from '@podwarden/policies';
import type { AppLogger } from '../logging/logger';
import type { RedisKeys } from '../redis/redis-keys';
import { DurableStream } from './durable-stream';
import { runReadyEdgeSchema } from './run-ready-edge.schema';

const READY_LOG_STREAM = {
  what: 'ready log write',
  lostEntryField: 'readyEdge',
  lostEntryMessage: 'model-ready edge NOT recorded durably',
};

/**
 * When the idle monitor first saw the model answer on a pod since it came up: the readyAt of
 * the pod's runs in /history. The idle state keeps only the current readySince, and a stop
 * clears it, so the edge is kept here, beside the action log it is joined with.
 */
export class ReadyLog {
  private readonly stream: DurableStream<RunReadyEdge>;

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
    logger: AppLogger,
    writeTimeoutMs: number = DEFAULTS.REDIS_WRITE_TIMEOUT_MS,
  ) {
    this.stream = new DurableStream(
      redis,
      { keys, logger, writeTimeoutMs, ...READY_LOG_STREAM },
      runReadyEdgeSchema,
    );
  }

  async record(podName: string, edge: RunReadyEdge): Promise<void> {
    await this.stream.append(this.keys.readyLog(podName), edge);
  }

  /** Nest shutdown, before the Redis connection closes: edges still being retried get a last try. */
  beforeApplicationShutdown(): Promise<void> {
    return this.stream.close();
  }

  /** Newest first. */
  recent(podName: string, limit: number): Promise<RunReadyEdge[]> {
    return this.stream.newest(this.keys.readyLog(podName), limit);
  }
}
