import type { PodwardenConfig } from '../config/config-types';

/** Room for closing connections and flushing logs once the work itself has settled. */
export const SHUTDOWN_MARGIN_MS = 5000;

export type ShutdownRole = 'gateway' | 'worker';

/**
 * How long a process may take to stop after SIGTERM before it exits anyway.
 * A worker waits SHUTDOWN_GRACE_MS for its running job, then hands it back.
 * The gateway must also let a start request that is waiting for its wake
 * (up to WAKE_REQUEST_WAIT_SECONDS) answer, so its deadline covers that wait.
 */
export function shutdownDeadlineMs(config: PodwardenConfig, role: ShutdownRole): number {
  const grace = config.tuning.shutdownGraceMs;
  const work = role === 'gateway' ? Math.max(grace, config.wake.requestWaitSeconds * 1000) : grace;
  return work + SHUTDOWN_MARGIN_MS;
}
