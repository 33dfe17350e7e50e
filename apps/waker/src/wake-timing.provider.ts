import type { FactoryProvider } from '@nestjs/common';
import type { PodwardenConfig } from '@podwarden/policies';
import { CONFIG } from '@podwarden/platform';
import { realSleep } from './wake/sleeper';
import { WAKE_TIMING, type WakeTiming } from './wake/wake-job-runner';

// How often a job that joined a wake in flight looks for its result: quick
// enough that a direct producer hears back promptly, cheap on Redis.
const JOIN_POLL_MS = 250;

/** The job runner's real clock and real sleeps; its stores and client Nest injects. */
export const wakeTimingProvider: FactoryProvider<WakeTiming> = {
  provide: WAKE_TIMING,
  useFactory: (config: PodwardenConfig) => ({
    now: () => new Date(),
    sleep: realSleep,
    joinSleep: realSleep,
    gateLeaseMs: config.wake.jobLockMs,
    joinPollMs: JOIN_POLL_MS,
  }),
  inject: [CONFIG],
};
