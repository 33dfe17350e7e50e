import type { PodConfig } from '@podwarden/policies';

/** One validated wake job: the configured pod it names, its attempt id (the job id) and who asked. */
export interface WakeRequest {
  readonly pod: PodConfig;
  readonly attemptId: string;
  readonly requestedBy: string | null;
}
