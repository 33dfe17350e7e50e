/** The process as far as interrupts go: what the handler listens on. */
export interface SignalSource {
  on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  off(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

/**
 * Ctrl-C (or SIGTERM) during a wait: the first aborts `signal` and the command reports what it knows; the
 * second runs `onSecond` at once. The listener stays registered, so the second is never swallowed.
 */
export class InterruptHandler {
  private readonly controller = new AbortController();
  private delivered = 0;
  private readonly listener = (): void => this.deliver();

  constructor(
    private readonly source: SignalSource,
    private readonly onSecond: () => void,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  install(): this {
    this.source.on('SIGINT', this.listener);
    this.source.on('SIGTERM', this.listener);
    return this;
  }

  dispose(): void {
    this.source.off('SIGINT', this.listener);
    this.source.off('SIGTERM', this.listener);
  }

  private deliver(): void {
    this.delivered += 1;
    if (this.delivered === 1) this.controller.abort();
    else this.onSecond();
  }
}
