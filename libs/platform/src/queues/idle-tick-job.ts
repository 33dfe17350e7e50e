/** The idle monitor's scheduled tick: one job per CHECK_SECONDS, whichever replica takes it. */
export const IDLE_TICK_QUEUE = 'idle-tick';
export const IDLE_TICK_JOB = 'idle-tick';
export const IDLE_TICK_SCHEDULER_ID = 'idle-tick-every-check';
