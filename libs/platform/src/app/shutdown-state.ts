/**
 * Set once shutdown starts: Redis connections stop reconnecting from then on, so what waits on one
 * (BullMQ's close, a QUIT) settles instead of waiting past the grace for a Redis that may not come back.
 */
let shuttingDown = false;

export function markShuttingDown(): void {
  shuttingDown = true;
}

export function isShuttingDown(): boolean {
  return shuttingDown;
}
