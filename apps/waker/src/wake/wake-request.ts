import type { PodConfig } from '@podwarden/policies';

/** One validated wake job: the configured pod it names, its attempt id (the job id), who asked and
 * how many runs of it have started. */
export interface WakeRequest {
  readonly pod: PodConfig;
  readonly attemptId: string;
  readonly requestedBy: string | null;
  /** Runs of this job started so far, this one included: a run that throws runs again below a cap. */
  readonly runsStarted: number;
}
