/** The process as far as interrupts go: what the handler listens on. */
export interface SignalSource {
  on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  off(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

/**
 * Ctrl-C during a wait: the first one aborts `signal`, so the command stops
 * waiting and reports what it knows; the second one runs `onSecond` at once,
 * whatever the first is still doing. The listener stays registered after the
 * first delivery, so the second is never swallowed. SIGTERM counts the same.
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
