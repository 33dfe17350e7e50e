import type { LastWakeOutcome } from '@podwarden/policies';
import type { WakeDiagnostics, WakeReport } from '../wake/wake-report';

/** Written before RunPod is touched, so a wake that crashes still leaves a trace. */
export interface WakeRequestedRecord {
  readonly type: 'Requested';
  readonly podName: string;
  readonly attemptId: string;
  readonly requestedAt: string;
  readonly requestedBy: string | null;
}

/** What a Completed record adds to its Requested one ("what happened to the last wake, and why?"). */
export interface WakeCompletion
  extends Pick<WakeReport, 'podId' | 'gpuId' | 'pricePerHour'>, WakeDiagnostics {
  readonly completedAt: string;
  readonly outcome: LastWakeOutcome;
  /** The wake's own outcome word (AlreadyRunning/Started/Created/Waiting/Failed) or "Exception". */
  readonly wakeOutcome: string;
  /** The report's message. */
  readonly reason: string;
}

/** Written when the wake returns or throws. */
export interface WakeCompletedRecord extends Omit<WakeRequestedRecord, 'type'>, WakeCompletion {
  readonly type: 'Completed';
}

export type WakeRecord = WakeRequestedRecord | WakeCompletedRecord;

type Nullable<T> = { readonly [K in keyof T]: T[K] | null };

/** One attempt as served by /history: the completion fields are null while in flight (or after a crash). */
export type WakeAttemptView = Pick<WakeRequestedRecord, 'attemptId' | 'requestedAt' | 'requestedBy'> &
  Nullable<WakeCompletion>;

export const NO_COMPLETION: Nullable<WakeCompletion> = {
  completedAt: null,
  outcome: null,
  wakeOutcome: null,
  reason: null,
  podId: null,
  gpuId: null,
  pricePerHour: null,
  candidatesConsidered: null,
  lastProviderStatus: null,
};

/** The completion fields of a Completed record, and nothing else. */
export function completionOf(record: WakeCompletedRecord): WakeCompletion {
  const {
    type: _type,
    podName: _pod,
    attemptId: _id,
    requestedAt: _at,
    requestedBy: _by,
    ...completion
  } = record;
  return completion;
}
