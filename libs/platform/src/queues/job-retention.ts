import type { JobsOptions } from 'bullmq';
import type { TuningConfig } from '@podwarden/policies';

/**
 * How long finished jobs stay, defined once for every queue. A joiner reads
 * the holder's result and `waitUntilFinished` rejects for a job already
 * removed, so completed jobs stay a while; failed ones stay longer for
 * whoever diagnoses them.
 */
export function jobRetention(tuning: TuningConfig): Pick<JobsOptions, 'removeOnComplete' | 'removeOnFail'> {
  return {
    removeOnComplete: { age: tuning.keepCompletedJobsSeconds },
    removeOnFail: { age: tuning.keepFailedJobsSeconds },
  };
}
