import type { StartAnswer } from '../gateway/start-answer';

/**
 * Where the wake stands, as far as the wait knows: still running on a waker,
 * finished with the pod already up, finished having started or created it,
 * or given up polling (the pod may still come up).
 */
export type WakeStage = 'in-flight' | 'already-running' | 'succeeded' | 'timed-out';

/** What a wait has learned so far about its wake and the wake's pod. */
export interface WaitState {
  readonly attemptId: string;
  readonly stage: WakeStage;
  /** The wake's pod: from the start answer, else from the wake's completed record. */
  readonly podId: string | null;
  /** When the wake was requested (epoch ms, the gateway's clock), once its record is read. */
  readonly requestedAt: number | null;
  /** The wake's pod was seen up (or the wake said so): from here on a stop ends the wait. */
  readonly podWasUp: boolean;
  /** Consecutive readable answers in which the wake's pod was stopped or absent. */
  readonly misses: number;
}

export function initialWaitState(start: StartAnswer): WaitState {
  const stage: WakeStage =
    start.outcome === 'Waiting'
      ? 'in-flight'
      : start.outcome === 'AlreadyRunning'
        ? 'already-running'
        : 'succeeded';
  return {
    attemptId: start.attemptId,
    stage,
    podId: start.podId,
    requestedAt: null,
    podWasUp: stage !== 'in-flight',
    misses: 0,
  };
}

/** An unreadable answer is no evidence: "consecutive" misses must be consecutive readable ones. */
export function afterUnreadable(state: WaitState): WaitState {
  return state.misses === 0 ? state : { ...state, misses: 0 };
}
