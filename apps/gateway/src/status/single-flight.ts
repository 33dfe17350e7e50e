interface Flight<T> {
  readonly generation: number;
  readonly promise: Promise<T>;
}

/**
 * Reads of one key that overlap share a single promise, so concurrent GETs of
 * one pod in this process cost Redis one snapshot read. Nothing is kept once
 * the read settles, and nothing waits: a read starts as soon as it is asked for.
 * `invalidate` starts a new generation: a read that may predate a start or
 * stop is never handed to a later caller.
 */
export class SingleFlight<T> {
  private readonly flights = new Map<string, Flight<T>>();
  private readonly generations = new Map<string, number>();

  run(key: string, read: () => Promise<T>): Promise<T> {
    const generation = this.generations.get(key) ?? 0;
    const current = this.flights.get(key);
    if (current !== undefined && current.generation === generation) return current.promise;
    const promise = read();
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
