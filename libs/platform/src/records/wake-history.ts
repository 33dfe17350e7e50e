import type Redis from 'ioredis';
import type { AppLogger } from '../logging/logger';
import type { RedisKeys } from '../redis/redis-keys';
import { errorMessage } from '../util/error-message';
import { parseEntry } from './action-log';
import { withinTimeout } from '../util/within-timeout';
import type { WakeAttemptView, WakeCompletedRecord, WakeRecord, WakeRequestedRecord } from './wake-record';

const MAX_ENTRIES = 10_000;
const WRITE_TIMEOUT_MS = 3_000;

/** The wake history: a Requested/Completed pair per wake, also for refusals and crashes that bill nothing. */
export class WakeHistory {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly logger: AppLogger,
  ) {}

  requested(record: Omit<WakeRequestedRecord, 'type'>): Promise<void> {
    return this.append({ type: 'Requested', ...record });
  }

  completed(record: Omit<WakeCompletedRecord, 'type'>): Promise<void> {
    return this.append({ type: 'Completed', ...record });
  }

  private async append(record: WakeRecord): Promise<void> {
    try {
      await withinTimeout(
        this.redis.xadd(
          this.keys.wakeHistory(record.podName),
          'MAXLEN',
          '~',
          String(MAX_ENTRIES),
          '*',
          'entry',
          JSON.stringify(record),
        ),
        WRITE_TIMEOUT_MS,
        'wake history write',
      );
    } catch (error) {
      this.logger.error(
        { wakeRecord: record, err: errorMessage(error) },
        'wake history NOT recorded durably',
      );
    }
  }

  /** The newest completed wake, or null. */
  async last(podName: string): Promise<WakeCompletedRecord | null> {
    const rows = await this.redis.xrevrange(this.keys.wakeHistory(podName), '+', '-', 'COUNT', 50);
    for (const [, fields] of rows) {
      const [record] = parseEntry<WakeRecord>(fields);
      if (record?.type === 'Completed') return record;
    }
    return null;
  }

  /** Attempts newest first, each Requested joined with its Completed when there is one. */
  async recent(podName: string, limit: number): Promise<WakeAttemptView[]> {
    const rows = await this.redis.xrevrange(this.keys.wakeHistory(podName), '+', '-', 'COUNT', limit * 2 + 2);
    const records = rows.flatMap(([, fields]) => parseEntry<WakeRecord>(fields));
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
      const done = completed.get(record.attemptId) ?? null;
      attempts.push({
        attemptId: record.attemptId,
        requestedAt: record.requestedAt,
        requestedBy: record.requestedBy,
        completedAt: done?.completedAt ?? null,
        outcome: done?.outcome ?? null,
        wakeOutcome: done?.wakeOutcome ?? null,
        reason: done?.reason ?? null,
        podId: done?.podId ?? null,
        gpuId: done?.gpuId ?? null,
        pricePerHour: done?.pricePerHour ?? null,
        candidatesConsidered: done?.candidatesConsidered ?? null,
        lastProviderStatus: done?.lastProviderStatus ?? null,
      });
    }
    return attempts.slice(0, limit);
  }
}
