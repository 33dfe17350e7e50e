import type Redis from 'ioredis';
import { redisScript } from '../redis/redis-script';
import writeRecordOnceLua from './scripts/write-record-once.lua';

/**
 * How a record treats the write-ahead intent of the call it accounts for:
 * none (not a billable call's outcome, or no intent), claim (the outcome
 * closes the intent) or in-doubt (the intent stays open with its answer).
 */
export type IntentMode = 'none' | 'claim' | 'in-doubt';

/** recorded; dup (this very record was already written); claimed-elsewhere (another record closed the intent). */
export type RecordWriteOutcome = 'recorded' | 'dup' | 'claimed-elsewhere';

export interface RecordWrite {
  readonly streamKey: string;
  /** Marks this record written (its recordId): a retry after a lost answer appends nothing twice. */
  readonly writtenKey: string;
  readonly entryJson: string;
  readonly intent?: {
    readonly mode: Exclude<IntentMode, 'none'>;
    readonly hashKey: string;
    /** Marks the intent closed: of a late answer and a reconcile, only the first records. */
    readonly closedKey: string;
    readonly id: string;
    /** The intent with its answered status (in-doubt only). */
    readonly json?: string;
  };
}

// A capped stream: enough history for any diagnosis, never unbounded memory.
export const MAX_STREAM_ENTRIES = 10_000;
// Longer than any retry, reconcile or settle period: the markers only need to outlive those.
export const MARKER_TTL_SECONDS = 86_400;

// The entry and the intent's fate in one atomic step (see the script).
const writeRecordOnce = redisScript<RecordWriteOutcome>({
  name: 'write-record-once',
  numberOfKeys: 4,
  lua: writeRecordOnceLua,
});

/**
 * One durable record, written at most once however often it is retried. With
 * no intent the last two keys are the written marker again (never read): every
 * key stays under the one prefix, so a hash-tagged prefix keeps them in one slot.
 */
export async function writeRecord(redis: Redis, write: RecordWrite): Promise<RecordWriteOutcome> {
  const { intent } = write;
  return writeRecordOnce(
    redis,
    [
      write.streamKey,
      write.writtenKey,
      intent?.hashKey ?? write.writtenKey,
      intent?.closedKey ?? write.writtenKey,
    ],
    [
      intent?.mode ?? 'none',
      write.entryJson,
      intent?.id ?? '',
      intent?.json ?? '',
      MARKER_TTL_SECONDS,
      MAX_STREAM_ENTRIES,
    ],
  );
}
