import type { Gather } from './status-gather.constant';

interface Flight<T> {
  readonly generation: number;
  readonly promise: Promise<T>;
}

const noGathering: Gather = () => Promise.resolve();

/**
 * Reads of one key that overlap share a single promise, so a burst of GETs
 * costs RunPod one list and one observe per pod. A "simultaneous" burst
 * arrives spread over some milliseconds, so a new read first awaits
 * `gather` (a short wait in production) and only then reads: every caller
 * of the burst joins it, and every answer still comes from a read that began after the first caller
 * arrived. Nothing is kept once the read settles, so no answer is stale.
 * `invalidate` starts a new generation: a read that may predate a start or
 * stop is never handed to a later caller.
 */
export class SingleFlight<T> {
  private readonly flights = new Map<string, Flight<T>>();
  private readonly generations = new Map<string, number>();

  constructor(private readonly gather: Gather = noGathering) {}

  run(key: string, read: () => Promise<T>): Promise<T> {
    const generation = this.generations.get(key) ?? 0;
    const current = this.flights.get(key);
    if (current !== undefined && current.generation === generation) return current.promise;
    const promise = this.gather().then(read);
    const flight: Flight<T> = { generation, promise };
    this.flights.set(key, flight);
    const forget = (): void => {
      if (this.flights.get(key) === flight) this.flights.delete(key);
    };
    promise.then(forget, forget);
    return promise;
  }

  invalidate(key: string): void {
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
  }
}
