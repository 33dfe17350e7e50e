/**
 * The simulator's wall clock, moved by hand: pod lifecycles, model loads and
 * held chat requests advance only when a test says so, so every row sees the
 * exact state it names. Real timers (delay faults, client timeouts) are unaffected.
 */
export class ManualClock {
  constructor(public ms: number = Date.parse('2026-11-30T10:00:00Z')) {}

  readonly now = (): number => this.ms;

  advance(ms: number): void {
    this.ms += ms;
  }
}
