import type Redis from 'ioredis';
import type { AppLogger } from '../logging/logger';
import { errorMessage } from '../util/error-message';
import { withinTimeout } from '../util/within-timeout';

// A capped stream: enough history for any diagnosis, never unbounded memory.
const MAX_ENTRIES = 10_000;

export interface DurableStreamOptions {
  readonly logger: AppLogger;
  /** Bound on one append; a write past it is logged in full instead. */
  readonly writeTimeoutMs: number;
  /** What one entry is, for the timeout error ("action log write"). */
  readonly what: string;
  /** The log field that carries a lost entry, and the message that goes with it. */
  readonly lostEntryField: string;
  readonly lostEntryMessage: string;
}

/**
 * One Redis stream of JSON entries, the storage under both durable records.
 * An append never fails the action it records: when Redis refuses or is slow,
 * the whole entry goes to the log at Error, so nothing billable is unaccounted for.
 */
export class DurableStream<T> {
  constructor(
    private readonly redis: Redis,
    private readonly options: DurableStreamOptions,
  ) {}

  async append(key: string, entry: T): Promise<void> {
    try {
      await withinTimeout(
        this.redis.xadd(key, 'MAXLEN', '~', String(MAX_ENTRIES), '*', 'entry', JSON.stringify(entry)),
        this.options.writeTimeoutMs,
        this.options.what,
      );
    } catch (error) {
      this.options.logger.error(
        { [this.options.lostEntryField]: entry, err: errorMessage(error) },
        this.options.lostEntryMessage,
      );
    }
  }

  /** Newest first; an entry that does not parse is skipped. */
  async newest(key: string, count: number): Promise<T[]> {
    const rows = await this.redis.xrevrange(key, '+', '-', 'COUNT', count);
    return rows.flatMap(([, fields]) => parseEntry<T>(fields));
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
