import type { Clock } from '../time/clock';
import { T0 } from './status-bodies';

interface Sleeper {
  readonly until: number;
  readonly resolve: () => void;
}

function flushPromises(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A clock that moves only when told to. `drive` runs a piece of async work to
 * its end, jumping time to the next pending sleep whenever the work is idle,
 * so a ten-minute wait runs in microseconds and in a fixed order.
 */
export class FakeClock implements Clock {
  private current: number;
  private sleepers: Sleeper[] = [];

  constructor(start: number = T0) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper: Sleeper = { until: this.current + Math.max(0, ms), resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          this.sleepers = this.sleepers.filter((s) => s !== sleeper);
          resolve();
        },
        { once: true },
      );
    });
  }

  /** Moves time forward, waking every sleep that has come due. */
  advance(ms: number): void {
    this.current += ms;
    const due = this.sleepers.filter((s) => s.until <= this.current);
    this.sleepers = this.sleepers.filter((s) => s.until > this.current);
    for (const sleeper of due) sleeper.resolve();
  }

  /** Runs `work` to completion, advancing to the next sleep whenever nothing else can move. */
  async drive<T>(work: Promise<T>, maxSteps = 10_000): Promise<T> {
    let settled = false;
    const watched = work.finally(() => {
      settled = true;
    });
    watched.catch(() => undefined);
    for (let step = 0; step < maxSteps; step++) {
      await flushPromises();
      if (settled) return watched;
      const next = Math.min(...this.sleepers.map((s) => s.until));
      if (!Number.isFinite(next)) throw new Error('FakeClock.drive: the work is stuck with no sleep pending');
      this.advance(next - this.current);
    }
    throw new Error('FakeClock.drive: too many steps');
  }
}
