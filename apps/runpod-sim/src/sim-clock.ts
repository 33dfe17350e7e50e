/**
 * Simulated time. It runs `speed` times faster than the wall clock, so every
 * configured duration is divided by the speed factor in real time. Changing
 * the speed re-anchors the clock: simulated time stays continuous, only its
 * rate changes, so pods already in flight keep their timeline.
 */
export class SimClock {
  private anchorWall: number;
  private anchorSim: number;
  private currentSpeed: number;

  constructor(
    private readonly wallNow: () => number,
    speed: number,
  ) {
    this.anchorWall = wallNow();
    // At speed 1 simulated time equals wall time.
    this.anchorSim = this.anchorWall;
    this.currentSpeed = speed;
  }

  /** Simulated epoch milliseconds. */
  now(): number {
    return this.anchorSim + (this.wallNow() - this.anchorWall) * this.currentSpeed;
  }

  /** Wall-clock epoch milliseconds (what createdAt and the call log show). */
  wall(): number {
    return this.wallNow();
  }

  get speed(): number {
    return this.currentSpeed;
  }

  setSpeed(speed: number): void {
    const simNow = this.now();
    this.anchorWall = this.wallNow();
    this.anchorSim = simNow;
    this.currentSpeed = speed;
  }

  /** Real milliseconds until simulated time reaches `simAt` (0 when already past). */
  realDelayUntil(simAt: number): number {
    return Math.max(0, (simAt - this.now()) / this.currentSpeed);
  }
}
