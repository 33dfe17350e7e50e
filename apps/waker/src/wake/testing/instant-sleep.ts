import { cancellationOf } from '../job-cancellation';
import type { Sleep } from '../sleeper';

/**
 * Returns at once and remembers each delay, so polling and Retry-After waits are asserted without waiting;
 * with a timeline it notes them there too, to order them against RunPod calls. Like the real sleep, it
 * refuses to wait for a cancelled job.
 */
export class InstantSleep {
  readonly delays: number[] = [];

  constructor(private readonly timeline?: { note(event: string): void }) {}

  readonly sleep: Sleep = async (ms, signal) => {
    if (signal?.aborted) throw cancellationOf(signal);
    this.delays.push(ms);
    this.timeline?.note(`sleep ${ms}`);
  };
}
