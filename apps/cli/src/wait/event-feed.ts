import { followEvents, type FollowEnding, type StreamOpener } from '../events/event-follower';
import type { Clock } from '../time/clock';
import { POLL_INTERVAL_MS, SAFETY_READ_INTERVAL_MS, type ChangeFeed } from './change-feed';

/**
 * A live event stream: every event (and every reconnect, which may have
 * missed some) makes a read due at once. While the stream is down, or after
 * following gave up, it falls back to the polling cadence.
 */
export class EventFeed implements ChangeFeed {
  private due = false;
  private live = false;
  private wakeUp: (() => void) | null = null;
  private readonly stop = new AbortController();
  readonly ended: Promise<FollowEnding>;

  constructor(
    private readonly clock: Clock,
    open: StreamOpener,
    onDisconnected: (reason: string) => void,
  ) {
    this.ended = followEvents(
      open,
      clock,
      {
        onEvent: () => this.markDue(),
        onConnected: () => {
          this.live = true;
          this.markDue();
        },
        onDisconnected: (reason) => {
          this.live = false;
          onDisconnected(reason);
        },
      },
      this.stop.signal,
    ).finally(() => {
      this.live = false;
    });
  }

  async next(maxMs: number, signal: AbortSignal): Promise<void> {
    if (!this.due) {
      const woken = new AbortController();
      this.wakeUp = () => woken.abort();
      const interval = this.live ? SAFETY_READ_INTERVAL_MS : POLL_INTERVAL_MS;
      await this.clock.sleep(Math.min(maxMs, interval), AbortSignal.any([signal, woken.signal]));
      this.wakeUp = null;
    }
    this.due = false;
  }

  close(): void {
    this.stop.abort();
  }

  private markDue(): void {
    this.due = true;
    this.wakeUp?.();
  }
}
