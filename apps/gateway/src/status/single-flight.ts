interface Flight<T> {
  readonly generation: number;
  readonly promise: Promise<T>;
}

/**
 * Concurrent reads of one key share a single in-flight promise, so a burst of
 * GETs costs RunPod one list and one observe per pod. Nothing is cached after
 * the read settles. `invalidate` starts a new generation: a read already in
 * flight then stops being shared, because it may predate a start or stop.
 */
export class SingleFlight<T> {
  private readonly flights = new Map<string, Flight<T>>();
  private readonly generations = new Map<string, number>();

  run(key: string, read: () => Promise<T>): Promise<T> {
    const generation = this.generations.get(key) ?? 0;
    const current = this.flights.get(key);
    if (current !== undefined && current.generation === generation) return current.promise;
    const promise = Promise.resolve()
      .then(read)
      .finally(() => {
        if (this.flights.get(key)?.promise === promise) this.flights.delete(key);
      });
    this.flights.set(key, { generation, promise });
    return promise;
  }

  invalidate(key: string): void {
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
  }
}
