import type { LastWakeOutcome } from '@podwarden/policies';

/** Written before RunPod is touched, so a wake that crashes still leaves a trace. */
export interface WakeRequestedRecord {
  readonly type: 'Requested';
  readonly podName: string;
  readonly attemptId: string;
  readonly requestedAt: string;
  readonly requestedBy: string | null;
}

/** Written when the wake returns or throws ("what happened to the last wake, and why?"). */
export interface WakeCompletedRecord {
  readonly type: 'Completed';
  readonly podName: string;
  readonly attemptId: string;
  readonly requestedAt: string;
  readonly requestedBy: string | null;
  readonly completedAt: string;
  readonly outcome: LastWakeOutcome;
  /** The wake's own outcome word (AlreadyRunning/Started/Created/Waiting/Failed) or "Exception". */
  readonly wakeOutcome: string;
  readonly reason: string;
  readonly podId: string | null;
  readonly gpuId: string | null;
  readonly pricePerHour: number | null;
  readonly candidatesConsidered: number;
  readonly lastProviderStatus: number | null;
}

export type WakeRecord = WakeRequestedRecord | WakeCompletedRecord;

/** One attempt as served by /history: completed fields are null while in flight (or after a crash). */
export interface WakeAttemptView {
  readonly attemptId: string;
  readonly requestedAt: string;
  readonly requestedBy: string | null;
  readonly completedAt: string | null;
  readonly outcome: LastWakeOutcome | null;
  readonly wakeOutcome: string | null;
  readonly reason: string | null;
  readonly podId: string | null;
  readonly gpuId: string | null;
  readonly pricePerHour: number | null;
  readonly candidatesConsidered: number | null;
  readonly lastProviderStatus: number | null;
}
