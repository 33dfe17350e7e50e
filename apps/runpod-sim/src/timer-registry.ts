/**
 * Every real timer the simulator arms (delay faults, held chat responses)
 * goes through here, so close() can clear them all and nothing keeps the
 * process alive afterwards. Pod state itself needs no timers: it is derived
 * from timestamps when asked.
 */
export class TimerRegistry {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  after(delayMs: number, run: () => void): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, delayMs);
    this.timers.add(timer);
  }

  get pending(): number {
    return this.timers.size;
  }

  clearAll(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
