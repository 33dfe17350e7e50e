import type Redis from 'ioredis';
import { DEFAULTS } from '@podwarden/policies';
import type { AppLogger } from '../logging/logger';
import type { RedisKeys } from '../redis/redis-keys';
import { DurableStream } from './durable-stream';
import {
  NO_COMPLETION,
  completionOf,
  type WakeAttemptView,
  type WakeCompletedRecord,
  type WakeRecord,
  type WakeRequestedRecord,
} from './wake-record';
import { wakeRecordSchema } from './wake-record.schema';

// How far back `last` looks for a Completed record past newer Requested ones.
const LAST_WAKE_SCAN = 50;

const WAKE_HISTORY_STREAM = {
  what: 'wake history write',
  lostEntryField: 'wakeRecord',
  lostEntryMessage: 'wake history NOT recorded durably',
};

/** The wake history: a Requested/Completed pair per wake, also for refusals and crashes that bill nothing. */
export class WakeHistory {
  private readonly stream: DurableStream<WakeRecord>;

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
    logger: AppLogger,
    writeTimeoutMs: number = DEFAULTS.REDIS_WRITE_TIMEOUT_MS,
  ) {
    this.stream = new DurableStream(
      redis,
      { keys, logger, writeTimeoutMs, ...WAKE_HISTORY_STREAM },
      wakeRecordSchema,
    );
  }

  requested(record: Omit<WakeRequestedRecord, 'type'>): Promise<void> {
    return this.append({ type: 'Requested', ...record });
  }

  completed(record: Omit<WakeCompletedRecord, 'type'>): Promise<void> {
    return this.append({ type: 'Completed', ...record });
  }

  private async append(record: WakeRecord): Promise<void> {
    await this.stream.append(this.keys.wakeHistory(record.podName), record);
  }

  /** Nest shutdown, before the Redis connection closes: records still being retried get a last try. */
  beforeApplicationShutdown(): Promise<void> {
    return this.stream.close();
  }

  /** The newest completed wake, or null. */
  async last(podName: string): Promise<WakeCompletedRecord | null> {
    const records = await this.stream.newest(this.keys.wakeHistory(podName), LAST_WAKE_SCAN);
    return records.find((record): record is WakeCompletedRecord => record.type === 'Completed') ?? null;
  }

  /** Attempts newest first, each Requested joined with its Completed when there is one. */
  async recent(podName: string, limit: number): Promise<WakeAttemptView[]> {
    const records = await this.stream.newest(this.keys.wakeHistory(podName), limit * 2 + 2);
    const completed = new Map<string, WakeCompletedRecord>();
    for (const record of records) {
      if (record.type === 'Completed' && !completed.has(record.attemptId))
        completed.set(record.attemptId, record);
    }
    const seen = new Set<string>();
    const attempts: WakeAttemptView[] = [];
    for (const record of records) {
      if (seen.has(record.attemptId)) continue;
      seen.add(record.attemptId);
      const done = completed.get(record.attemptId);
      attempts.push({
        attemptId: record.attemptId,
        requestedAt: record.requestedAt,
        requestedBy: record.requestedBy,
        ...(done ? completionOf(done) : NO_COMPLETION),
      });
    }
    return attempts.slice(0, limit);
  }
}
