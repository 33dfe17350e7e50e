import type Redis from 'ioredis';
import { DEFAULTS } from '@podwarden/policies';
import type { AppLogger } from '../logging/logger';
import type { RedisKeys } from '../redis/redis-keys';
import type { ActionRecord } from './action-record';
import { DurableStream } from './durable-stream';

const ACTION_LOG_STREAM = {
  what: 'action log write',
  lostEntryField: 'actionRecord',
  lostEntryMessage: 'billable action NOT recorded durably; full entry logged here instead',
};

/** The billable-action log: one durable entry per Start/Create/Terminate/Stop call issued. */
export class ActionLog {
  private readonly stream: DurableStream<ActionRecord>;

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
    logger: AppLogger,
    writeTimeoutMs: number = DEFAULTS.REDIS_WRITE_TIMEOUT_MS,
    /** Runs beside every record (a billable call was just issued): the apps invalidate the status snapshot. Must not throw. */
    private readonly afterRecord: (podName: string) => Promise<void> = () => Promise.resolve(),
  ) {
    this.stream = new DurableStream(redis, { logger, writeTimeoutMs, ...ACTION_LOG_STREAM });
  }

  async record(entry: ActionRecord): Promise<void> {
    await Promise.all([
      this.stream.append(this.keys.actionLog(entry.podName), entry),
      this.afterRecord(entry.podName),
    ]);
  }

  /** Newest first. */
  recent(podName: string, limit: number): Promise<ActionRecord[]> {
    return this.stream.newest(this.keys.actionLog(podName), limit);
  }
}
