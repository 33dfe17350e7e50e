/**
 * What the idle monitor read of its tick scheduler in Redis. The scheduler
 * ticks only while the job of its next run exists: a worker that takes that
 * job adds the one after, so a scheduler whose next job is gone never ticks again.
 */
export type SchedulerReading =
  | { readonly kind: 'unreadable' }
  | { readonly kind: 'absent' }
  | {
      readonly kind: 'present';
      /** The scheduler's next run (epoch ms), the id of the job that must exist. */
      readonly nextRunAt: number;
      readonly nextJobFound: boolean;
      /** The next run read again after the job was not found (null: not read, or the scheduler went). */
      readonly nextRunAgainAt: number | null;
    };

/** Unknown: Redis did not answer, so neither "there" nor "missing" may be claimed. */
export type SchedulerPresence = 'present' | 'missing' | 'unknown';

/**
 * A next job that is not found while the scheduler moved on meanwhile was
 * taken by a worker between the two reads: the scheduler is there.
 */
export function schedulerPresence(reading: SchedulerReading): SchedulerPresence {
  if (reading.kind === 'unreadable') return 'unknown';
  if (reading.kind === 'absent') return 'missing';
  if (reading.nextJobFound) return 'present';
  const movedOn = reading.nextRunAgainAt !== null && reading.nextRunAgainAt !== reading.nextRunAt;
  return movedOn ? 'present' : 'missing';
}

/** The check runs off the monitor's own timer (a lost scheduler runs no tick to check it from). */
export const SCHEDULER_CHECK_TICKS = 2;
export const SCHEDULER_CHECK_MAX_MS = 30_000;

/** Every two ticks, and at least every 30 s: a long CHECK_SECONDS must not leave a lost scheduler for minutes. */
export function schedulerCheckMs(checkSeconds: number): number {
  return Math.min(checkSeconds * SCHEDULER_CHECK_TICKS * 1000, SCHEDULER_CHECK_MAX_MS);
}
