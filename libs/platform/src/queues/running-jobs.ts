/** The jobs a worker is running, so shutdown can give them a bounded time to finish. */
export class RunningJobs {
  private readonly running = new Set<Promise<unknown>>();

  /** Tracks the work until it settles; returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    const forget = (): void => void this.running.delete(work);
    work.then(forget, forget);
    return work;
  }

  get size(): number {
    return this.running.size;
  }

  /** True once nothing runs (a job taken meanwhile counts too); false if something still runs after `ms`. */
  async settledWithin(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.running.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, left)));
      await Promise.race([Promise.allSettled([...this.running]), timeout]);
      clearTimeout(timer);
    }
    return true;
  }
}
