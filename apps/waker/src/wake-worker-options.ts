import type { PodwardenConfig } from '@podwarden/policies';

// A wake is idempotent, so a job whose waker died may be re-delivered a few
// times; past that, whatever kills every waker that takes it should fail it.
const MAX_STALLED_COUNT = 3;

/**
 * The wake worker's options, from config. A killed worker stops renewing its
 * job lock; after the stalled check (as long as the lock) the job is
 * re-delivered and the re-run adopts what the first one placed.
 */
export function wakeWorkerOptions(config: PodwardenConfig) {
  return {
    concurrency: config.tuning.wakeConcurrency,
    lockDuration: config.wake.jobLockMs,
    stalledInterval: config.wake.jobLockMs,
    maxStalledCount: MAX_STALLED_COUNT,
  } as const;
}
