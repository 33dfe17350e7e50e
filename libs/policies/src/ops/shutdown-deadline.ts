import type { PodwardenConfig } from '../config/config-types';

/** Room for closing connections and flushing logs once the work itself has settled. */
export const SHUTDOWN_MARGIN_MS = 5000;

export type ShutdownRole = 'gateway' | 'worker';

/**
 * How long a process may take to stop after SIGTERM before it exits anyway: a worker's job grace and,
 * for the gateway, also a waiting start request's wake wait, so that request can still answer.
 */
export function shutdownDeadlineMs(config: PodwardenConfig, role: ShutdownRole): number {
  const grace = config.tuning.shutdownGraceMs;
  const work = role === 'gateway' ? Math.max(grace, config.wake.requestWaitSeconds * 1000) : grace;
  return work + SHUTDOWN_MARGIN_MS;
}
