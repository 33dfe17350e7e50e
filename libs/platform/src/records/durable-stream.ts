import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { z } from 'zod';
import { readStored } from '../redis/stored-json';
import type { RedisKeys } from '../redis/redis-keys';
import { writeRecord, type RecordWrite, type RecordWriteOutcome } from './record-script';
import { WriteRetrier, type WriteRetrierOptions } from './write-retrier';

export interface DurableStreamOptions extends Omit<
  WriteRetrierOptions,
  'attemptTimeoutMs' | 'what' | 'lostEntryField' | 'lostEntryMessage'
> {
  readonly keys: RedisKeys;
  /** Bound on one append attempt; past it the entry is retried in the background. */
  readonly writeTimeoutMs: number;
  /** What one entry is, for the logs ("action log write"). */
  readonly what: string;
  /** The log field that carries an entry not written, and the message when one is given up. */
  readonly lostEntryField: string;
  readonly lostEntryMessage: string;
}

/** What an entry read back must be; one of another shape is skipped like one that is not JSON. */
export type EntrySchema<T> = z.ZodType<T>;

/** What became of an append: written (or found written), refused by its intent's claim, or still being retried. */
export type AppendOutcome = RecordWriteOutcome | 'pending';

/** How an append closes a write-ahead intent in the same atomic step (see record-script). */
export type AppendIntent = Omit<NonNullable<RecordWrite['intent']>, 'closedKey'>;

/**
 * One Redis stream of JSON entries under both durable records. An append never fails the action: each
 * entry has its own id, is written at most once and retried in the background until Redis takes it
 * (logged in full at Error if it never does).
 */
export class DurableStream<T> {
  private readonly retrier: WriteRetrier;

  constructor(
    private readonly redis: Redis,
    private readonly options: DurableStreamOptions,
    private readonly schema: EntrySchema<T>,
  ) {
    this.retrier = new WriteRetrier({ ...options, attemptTimeoutMs: options.writeTimeoutMs });
  }

  async append(key: string, entry: T, intent?: AppendIntent): Promise<AppendOutcome> {
    const { keys } = this.options;
    const write: RecordWrite = {
      streamKey: key,
      writtenKey: keys.recordWritten(randomUUID()),
      entryJson: JSON.stringify(entry),
      intent: intent && { ...intent, closedKey: keys.intentClosed(intent.id) },
    };
    const outcome = await this.retrier.write(entry, () => writeRecord(this.redis, write));
    return outcome ?? 'pending';
  }

  /** Entries not yet written: one last attempt each, then the log. */
  close(): Promise<void> {
    return this.retrier.close();
  }

  /** Newest first; an entry that is not JSON of the schema's shape is skipped. */
  async newest(key: string, count: number): Promise<T[]> {
    const rows = await this.redis.xrevrange(key, '+', '-', 'COUNT', count);
    return rows.flatMap(([, fields]) => parseEntry(fields, this.schema));
  }
}

/** The entry of one stream row: none when the row has no entry field or the entry is unreadable. */
export function parseEntry<T>(fields: string[], schema: EntrySchema<T>): T[] {
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'entry') {
      const read = readStored(schema, fields[i + 1]);
      return read.kind === 'read' ? [read.value] : [];
    }
  }
  return [];
}
