import type Redis from 'ioredis';
import { DEFAULTS } from '@podwarden/policies';
import type { AppLogger } from '../logging/logger';
import type { RedisKeys } from '../redis/redis-keys';
import type { ActionRecord } from './action-record';
import type { IntentClosing } from './billable-intents';
import { DurableStream, type AppendIntent, type AppendOutcome } from './durable-stream';
import { actionRecordSchema } from './action-record.schema';

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
    this.stream = new DurableStream(
      redis,
      { keys, logger, writeTimeoutMs, ...ACTION_LOG_STREAM },
      actionRecordSchema,
    );
  }

  /**
   * The entry, and the fate of the call's write-ahead intent with it in one
   * atomic step: 'claimed-elsewhere' means another record (a reconcile)
   * already closed that intent, and this entry was not written.
   */
  async record(entry: ActionRecord, closing?: IntentClosing): Promise<AppendOutcome> {
    const [outcome] = await Promise.all([
      this.stream.append(this.keys.actionLog(entry.podName), entry, this.intentOf(closing)),
      this.afterRecord(entry.podName),
    ]);
    return outcome;
  }

  /** Newest first. */
  recent(podName: string, limit: number): Promise<ActionRecord[]> {
    return this.stream.newest(this.keys.actionLog(podName), limit);
  }

  /** Nest shutdown, before the Redis connection closes: records still being retried get a last try. */
  beforeApplicationShutdown(): Promise<void> {
    return this.stream.close();
  }

  private intentOf(closing: IntentClosing | undefined): AppendIntent | undefined {
    if (closing === undefined) return undefined;
    const { intent } = closing;
    const hashKey = this.keys.billableIntents(intent.podName);
    if (closing.mode === 'claim') return { mode: 'claim', hashKey, id: intent.id };
    const json = JSON.stringify({ ...intent, answeredStatus: closing.answeredStatus });
    return { mode: 'in-doubt', hashKey, id: intent.id, json };
  }
}
