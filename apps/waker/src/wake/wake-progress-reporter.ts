/** Where a running wake is, for GET's `wake` field; implementations must never throw into the wake. */
export type WakePhase =
  'lookup' | 'observe' | 'start' | 'create' | 'retry-wait' | 'settle' | 'poll-new-pod' | 'terminate';

export interface WakeProgressReporter {
  report(phase: WakePhase, message: string): Promise<void>;
}
