import type { JobsOptions } from 'bullmq';
import type { TuningConfig } from '@podwarden/policies';

/**
 * How long finished jobs stay, for every queue: a joiner reads the holder's result and `waitUntilFinished`
 * rejects for a removed job, so completed ones stay a while; failed ones longer, for diagnosis.
 */
export function jobRetention(tuning: TuningConfig): Pick<JobsOptions, 'removeOnComplete' | 'removeOnFail'> {
  return {
    removeOnComplete: { age: tuning.keepCompletedJobsSeconds },
    removeOnFail: { age: tuning.keepFailedJobsSeconds },
  };
}
