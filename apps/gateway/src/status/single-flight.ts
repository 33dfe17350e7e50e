interface Flight<T> {
  readonly generation: number;
  readonly promise: Promise<T>;
  /** When the read fulfilled; null while it is in flight. */
  settledAt: number | null;
}

/**
 * Reads of one key that overlap share a single promise, so a burst of GETs
 * costs RunPod one list and one observe per pod. A fulfilled read stays
 * shared for `lingerMs` after it settles, because a "simultaneous" burst
 * arrives spread over a few milliseconds and the read can finish in between.
 * `invalidate` starts a new generation: a read that may predate a start or
 * stop is never handed to a later caller.
 */
export class SingleFlight<T> {
  private readonly flights = new Map<string, Flight<T>>();
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly lingerMs = 0,
    private readonly now: () => number = Date.now,
  ) {}

  run(key: string, read: () => Promise<T>): Promise<T> {
    const generation = this.generations.get(key) ?? 0;
    const current = this.flights.get(key);
    if (current !== undefined && current.generation === generation && this.isFresh(current))
      return current.promise;
    const promise = Promise.resolve().then(read);
    const flight: Flight<T> = { generation, promise, settledAt: null };
    this.flights.set(key, flight);
    promise.then(
      () => {
        flight.settledAt = this.now();
        if (this.lingerMs <= 0) this.forget(key, flight);
      },
      () => this.forget(key, flight),
    );
    return promise;
  }

  invalidate(key: string): void {
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
  }

  private isFresh(flight: Flight<T>): boolean {
    return flight.settledAt === null || this.now() - flight.settledAt < this.lingerMs;
  }

  private forget(key: string, flight: Flight<T>): void {
    if (this.flights.get(key) === flight) this.flights.delete(key);
  }
}
