import type { Job } from 'bullmq';
import { thrownWakeRunsAgain } from '@podwarden/policies';
import { errorMessage } from '@podwarden/platform';

/**
 * A wake run threw before it decided anything and may run again (thrownWakeRunsAgain): the processor
 * puts its job back, delayed, instead of recording the wake Failed.
 */
export class WakeRunAgainError extends Error {
  constructor(
    readonly runsStarted: number,
    cause: unknown,
  ) {
    super(`wake run ${runsStarted} threw: ${errorMessage(cause)}`, { cause });
    this.name = 'WakeRunAgainError';
  }
}

/** Runs of this job started so far, this one included; NaN when BullMQ's count is unreadable. */
export function runsStartedOf(job: Pick<Job, 'attemptsStarted'>): number {
  const count: unknown = job.attemptsStarted;
  return typeof count === 'number' ? count : Number.NaN;
}

/** What a throw of run `runsStarted` becomes: a WakeRunAgainError while the job may run again, else itself. */
export function asRunAgain(error: unknown, runsStarted: number, signal?: AbortSignal): unknown {
  return thrownWakeRunsAgain({ runsStarted, cancelled: signal?.aborted === true })
    ? new WakeRunAgainError(runsStarted, error)
    : error;
}
