/**
 * Set once a process starts shutting down. Redis connections read it in their
 * retry strategy: a connection that lost Redis stops reconnecting from then on,
 * so what waits on it (BullMQ's close, a QUIT) settles instead of waiting for
 * a Redis that may never come back within the shutdown grace.
 */
let shuttingDown = false;

export function markShuttingDown(): void {
  shuttingDown = true;
}

export function isShuttingDown(): boolean {
  return shuttingDown;
}
