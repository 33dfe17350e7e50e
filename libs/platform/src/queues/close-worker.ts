import type { Worker } from 'bullmq';
import type { AppLogger } from '../logging/logger';
import { withinTimeout } from '../util/within-timeout';
import type { RunningJobs } from './running-jobs';

export interface WorkerShutdown {
  readonly worker: Worker;
  readonly running: RunningJobs;
  readonly graceMs: number;
  /** Bound on asking Redis, over the worker's connection, whether it is there. */
  readonly probeMs: number;
  readonly logger: AppLogger;
  /** Names the worker in the Redis warning, e.g. "wake" or "idle tick". */
  readonly what: string;
  /** The warning logged when a job is handed back. */
  readonly handBackMessage: string;
}

/**
 * Stops a worker within its grace whatever Redis does: no new job, `graceMs` for the running ones, then a
 * forced close (a running job's lock lapses and it is re-delivered). Forced at once without Redis: a gentle
 * close would wait on a blocked fetch that cannot answer.
 */
export async function closeWorkerWithinGrace(shutdown: WorkerShutdown): Promise<void> {
  const { worker, running, logger } = shutdown;
  await worker.pause(true);
  const settled = await running.settledWithin(shutdown.graceMs);
  if (!settled) logger.warn({ graceMs: shutdown.graceMs }, shutdown.handBackMessage);
  const redisUp = await connectionReady(worker, shutdown.probeMs);
  if (!redisUp) logger.warn(`Redis unreachable at shutdown; closing the ${shutdown.what} worker at once`);
  await worker.close(!settled || !redisUp);
}

// An answer from Redis (INFO: BullMQ's client interface has no PING), not the client's status: a
// server killed a moment ago still reads 'ready' until the client notices, and a gentle close then
// waits forever on the blocked fetch.
async function connectionReady(worker: Worker, probeMs: number): Promise<boolean> {
  try {
    const answer = worker.backend.client.then((client) => client.info());
    return typeof (await withinTimeout(answer, probeMs, 'worker connection')) === 'string';
  } catch {
    return false;
  }
}
