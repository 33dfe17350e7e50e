import type { Clock } from '../time/clock';

/** How often a wait reads GET when nothing tells it about changes. */
export const POLL_INTERVAL_MS = 2_000;
/** With a live event stream, GET is still read this often, in case an event was never published. */
export const SAFETY_READ_INTERVAL_MS = 30_000;

/** Tells a wait when to read the pod's status again. */
export interface ChangeFeed {
  /** Resolves when a read is due, at the latest after `maxMs`, or as soon as `signal` aborts. */
  next(maxMs: number, signal: AbortSignal): Promise<void>;
  close(): void;
}

/** No event stream: read every POLL_INTERVAL_MS. */
export class PollingFeed implements ChangeFeed {
  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number = POLL_INTERVAL_MS,
  ) {}

  next(maxMs: number, signal: AbortSignal): Promise<void> {
    return this.clock.sleep(Math.min(maxMs, this.intervalMs), signal);
  }

  close(): void {}
}
