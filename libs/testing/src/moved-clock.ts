/**
 * A stand-in for the platform's shared clock (Redis's, in production) that
 * moves only when the test sets `at`: a spec reasons about hours of spend or
 * a lease lapsing without waiting for them.
 */
export class MovedClock {
  constructor(public at: number) {}

  now(): Promise<number> {
    return Promise.resolve(this.at);
  }
}
