import type { SchedulerCheckCause, TickScheduler } from './tick-scheduler';

/** The queue connection's events the watch follows ('ready': connected again, possibly to an empty Redis). */
export interface ConnectionEvents {
  on(event: 'ready', listener: () => void): unknown;
  off(event: 'ready', listener: () => void): unknown;
}

/**
 * Checks the tick scheduler off a timer of its own and whenever the queue's
 * connection is ready again: a lost scheduler runs no tick that could notice
 * it. One check at a time; a cause that arrives meanwhile runs right after.
 */
export class SchedulerWatch {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private pending: SchedulerCheckCause | null = null;
  private stopped = false;
  private readonly onReady = (): void => void this.check('reconnect');

  constructor(
    private readonly scheduler: Pick<TickScheduler, 'ensure'>,
    private readonly connection: ConnectionEvents,
    private readonly everyMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.check('timer'), this.everyMs);
    // Never what keeps the process alive at shutdown.
    this.timer.unref();
    this.connection.on('ready', this.onReady);
  }

  check(cause: SchedulerCheckCause): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running !== null) {
      this.pending = cause;
      return this.running;
    }
    this.running = this.scheduler
      .ensure(cause)
      .then(() => undefined)
      // ensure reports its own failures; a timer must never leave a rejection behind.
      .catch(() => undefined)
      .finally(() => {
        this.running = null;
        const next = this.pending;
        this.pending = null;
        if (next !== null) void this.check(next);
      });
    return this.running;
  }

  /** No check starts after this; the one running (bounded by the Redis timeouts) is awaited. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.pending = null;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.connection.off('ready', this.onReady);
    await this.running;
  }
}
