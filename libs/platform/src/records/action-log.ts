import type Redis from 'ioredis';
import type { AppLogger } from '../logging/logger';
import type { RedisKeys } from '../redis/redis-keys';
import type { ActionRecord } from './action-record';
import { errorMessage } from '../util/error-message';
import { withinTimeout } from '../util/within-timeout';

const MAX_ENTRIES = 10_000;
const WRITE_TIMEOUT_MS = 3_000;

/** The billable-action log: one durable entry per Start/Create/Terminate/Stop call issued. */
export class ActionLog {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly logger: AppLogger,
  ) {}

  async record(entry: ActionRecord): Promise<void> {
    try {
      await withinTimeout(
        this.redis.xadd(
          this.keys.actionLog(entry.podName),
          'MAXLEN',
          '~',
          String(MAX_ENTRIES),
          '*',
          'entry',
          JSON.stringify(entry),
        ),
        WRITE_TIMEOUT_MS,
        'action log write',
      );
    } catch (error) {
      this.logger.error(
        { actionRecord: entry, err: errorMessage(error) },
        'billable action NOT recorded durably; full entry logged here instead',
      );
    }
  }

  /** Newest first. */
  async recent(podName: string, limit: number): Promise<ActionRecord[]> {
    const rows = await this.redis.xrevrange(this.keys.actionLog(podName), '+', '-', 'COUNT', limit);
    return rows.flatMap(([, fields]) => parseEntry<ActionRecord>(fields));
  }
}

export function parseEntry<T>(fields: string[]): T[] {
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'entry') {
      try {
        return [JSON.parse(fields[i + 1]) as T];
      } catch {
        return [];
      }
    }
  }
  return [];
}
