interface Flight<T> {
  readonly generation: number;
  readonly promise: Promise<T>;
}

/**
 * Overlapping reads of one key share one promise, so concurrent GETs of a pod cost one Redis read; nothing
 * is kept once it settles. `invalidate` starts a new generation: a read that may predate a start or stop
 * is never handed to a later caller.
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
