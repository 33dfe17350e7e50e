/**
 * A wake run that throws (Redis dropped mid-run, a store write that failed) has decided nothing:
 * whatever it may have placed is in the write-ahead log, so running it again is safe and reconciles
 * first. Recording it Failed instead would end the caller's wake on a fault that passes in seconds.
 */

/** Runs of one wake job, the first included, before a throw is recorded as the wake's failure. */
export const MAX_WAKE_RUNS = 4;

/** How long a thrown run waits before it runs again: long enough for a restarting Redis to answer. */
export const WAKE_RERUN_DELAY_MS = 2000;

export interface ThrownWake {
  /** Runs of this job started so far, this one included (BullMQ's attemptsStarted). */
  readonly runsStarted: number;
  /** The job was cancelled: someone decided, so the throw is the wake's end. */
  readonly cancelled: boolean;
}

/** Whether a run that threw is put back to run again rather than recorded as the wake's failure. */
export function thrownWakeRunsAgain({ runsStarted, cancelled }: ThrownWake): boolean {
  if (cancelled) return false;
  // An unreadable count never grants a run: only a known count below the cap does.
  return Number.isInteger(runsStarted) && runsStarted >= 1 && runsStarted < MAX_WAKE_RUNS;
}
