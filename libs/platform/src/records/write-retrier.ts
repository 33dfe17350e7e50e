import type { AppLogger } from '../logging/logger';
import { errorMessage } from '../util/error-message';
import { withinTimeout } from '../util/within-timeout';

export interface WriteRetrierOptions {
  readonly logger: AppLogger;
  /** Bound on one attempt: ioredis queues commands while it reconnects. */
  readonly attemptTimeoutMs: number;
  /** What one write is ("action log write"), for the logs. */
  readonly what: string;
  /** The log field that carries an entry not written, and the message when one is given up. */
  readonly lostEntryField: string;
  readonly lostEntryMessage: string;
  readonly firstBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** How long an entry is retried before it is given up (logged in full at Error). */
  readonly giveUpAfterMs?: number;
  /** Entries held at most; past it the oldest is given up. */
  readonly maxPending?: number;
}

interface Pending {
  readonly entry: unknown;
  readonly attempt: () => Promise<unknown>;
  readonly since: number;
}

const DEFAULT_FIRST_BACKOFF_MS = 250;
const DEFAULT_MAX_BACKOFF_MS = 5_000;
const DEFAULT_GIVE_UP_AFTER_MS = 10 * 60_000;
const DEFAULT_MAX_PENDING = 1_000;

/**
 * Writes a durable entry, and keeps one Redis refused in memory, retrying it with bounded backoff, so a
 * Redis restart loses no billable record. The caller waits for the first attempt only. Every attempt must
 * be idempotent: a timed-out one may still land.
 */
export class WriteRetrier {
  private readonly pending: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private draining = false;
  private closed = false;
  private backoffMs: number;

  constructor(private readonly options: WriteRetrierOptions) {
    this.backoffMs = this.firstBackoffMs;
  }

  /** The first attempt's answer, or undefined when it failed and the entry was kept for retrying. */
  async write<T>(entry: unknown, attempt: () => Promise<T>): Promise<T | undefined> {
    try {
      return await this.tryOnce(attempt);
    } catch (error) {
      // Shutting down (the Redis connection is closing): nothing would retry it, so it is logged in full now.
      if (this.closed) {
        this.giveUp({ entry, attempt, since: Date.now() }, `${errorMessage(error)} (process shutting down)`);
        return undefined;
      }
      this.options.logger.warn(
        { [this.options.lostEntryField]: entry, err: errorMessage(error), pending: this.pending.length + 1 },
        `${this.options.what} failed; kept in memory and retried until Redis takes it`,
      );
      this.keep({ entry, attempt, since: Date.now() });
      return undefined;
    }
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  /** One last attempt at every entry still held, then the rest go to the log at Error: the process is ending. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.pending.length > 0) {
      const next = this.pending.shift() as Pending;
      try {
        await this.tryOnce(next.attempt);
      } catch (error) {
        this.giveUp(next, `${errorMessage(error)} (process shutting down)`);
      }
    }
  }

  private get firstBackoffMs(): number {
    return this.options.firstBackoffMs ?? DEFAULT_FIRST_BACKOFF_MS;
  }

  private tryOnce<T>(attempt: () => Promise<T>): Promise<T> {
    return withinTimeout(attempt(), this.options.attemptTimeoutMs, this.options.what);
  }

  private keep(item: Pending): void {
    this.pending.push(item);
    const max = this.options.maxPending ?? DEFAULT_MAX_PENDING;
    while (this.pending.length > max)
      this.giveUp(this.pending.shift() as Pending, 'too many entries pending');
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined || this.draining || this.closed || this.pending.length === 0) return;
    this.timer = setTimeout(() => void this.drain(), this.backoffMs);
    // A pending retry alone does not keep the process alive; shutdown logs what is left.
    this.timer.unref();
  }

  /** Oldest first, so the entries land in the order they were made; the first failure backs off. */
  private async drain(): Promise<void> {
    this.timer = undefined;
    this.draining = true;
    try {
      while (this.pending.length > 0) {
        const next = this.pending[0];
        try {
          await this.tryOnce(next.attempt);
        } catch (error) {
          if (Date.now() - next.since < (this.options.giveUpAfterMs ?? DEFAULT_GIVE_UP_AFTER_MS)) {
            this.backoffMs = Math.min(
              this.backoffMs * 2,
              this.options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS,
            );
            return;
          }
          this.giveUp(next, errorMessage(error));
        }
        if (this.pending[0] === next) this.pending.shift();
        this.backoffMs = this.firstBackoffMs;
      }
    } finally {
      this.draining = false;
      this.schedule();
    }
  }

  private giveUp(item: Pending, reason: string): void {
    const index = this.pending.indexOf(item);
    if (index >= 0) this.pending.splice(index, 1);
    this.options.logger.error(
      { [this.options.lostEntryField]: item.entry, err: reason },
      this.options.lostEntryMessage,
    );
  }
}
