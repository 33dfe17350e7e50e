import type { PodStatus } from '../gateway/pod-status';
import type { WaitState } from './wait-state';

export type ReadVerdict =
  | { readonly kind: 'ready'; readonly state: WaitState }
  | { readonly kind: 'waiting'; readonly state: WaitState }
  | {
      readonly kind: 'ended';
      readonly state: WaitState;
      readonly code: 'failed' | 'refused';
      readonly reason: 'wake-failed' | 'wake-refused' | 'pod-stopped' | 'pod-gone';
      readonly message: string;
    };

/** One stopped or missing read may be a stale snapshot or a short list; two in a row are not. */
export const MISSES_BEFORE_ENDING = 2;

const UP_STATUSES: ReadonlySet<string> = new Set(['PROVISIONING', 'STARTING', 'RUNNING']);
const DOWN_STATUSES: ReadonlySet<string> = new Set(['EXITED', 'TERMINATED']);
// Only a list RunPod actually answered says anything about which pods exist.
const CONCLUSIVE_LOOKUPS: ReadonlySet<string> = new Set(['FOUND', 'NOT_FOUND']);

type Learned =
  { readonly kind: 'learned'; readonly state: WaitState } | Extract<ReadVerdict, { kind: 'ended' }>;

/** The wake's own completed record is the word on how it ended. */
function learnFromRecord(state: WaitState, status: PodStatus): Learned {
  const record = status.lastWake;
  if (record === null || record.attemptId !== state.attemptId) return { kind: 'learned', state };
  const known = { ...state, podId: state.podId ?? record.podId, requestedAt: record.requestedAt };
  switch (record.outcome) {
    case 'Failed':
      return {
        kind: 'ended',
        state: known,
        code: 'failed',
        reason: 'wake-failed',
        message: `the wake failed: ${record.reason}`,
      };
    case 'Refused':
      return {
        kind: 'ended',
        state: known,
        code: 'refused',
        reason: 'wake-refused',
        message: `the wake was refused, nothing was billed: ${record.reason}`,
      };
    case 'TimedOut':
      return {
        kind: 'learned',
        state: { ...known, stage: state.stage === 'in-flight' ? 'timed-out' : state.stage },
      };
    case 'Succeeded': {
      // The start answer, when it already said how the wake ended, is the same wake's word.
      const finished = state.stage === 'already-running' || state.stage === 'succeeded';
      const stage = record.wakeOutcome === 'AlreadyRunning' ? 'already-running' : 'succeeded';
      return { kind: 'learned', state: { ...known, stage: finished ? state.stage : stage, podWasUp: true } };
    }
  }
}

/**
 * Ready means the model answers (readySince), on the wake's own pod, and not a
 * readiness left over from before this wake started it: RUNNING alone is not
 * ready, the model takes minutes to load.
 */
function isReady(state: WaitState, status: PodStatus): boolean {
  if (state.stage === 'in-flight' || state.podId === null) return false;
  if (status.readySince === null || !status.isRunning || status.podId !== state.podId) return false;
  return (
    state.stage === 'already-running' || state.requestedAt === null || status.readySince >= state.requestedAt
  );
}

/** Whether the wake's pod stopped or vanished; two conclusive reads in a row end the wait. */
function watchPod(state: WaitState, status: PodStatus): ReadVerdict {
  if (state.podId === null) return { kind: 'waiting', state };
  const ours = status.podId === state.podId;
  if (ours && UP_STATUSES.has(status.status))
    return { kind: 'waiting', state: { ...state, podWasUp: true, misses: 0 } };
  const conclusive =
    state.podWasUp && CONCLUSIVE_LOOKUPS.has(status.lookup) && (!ours || DOWN_STATUSES.has(status.status));
  if (!conclusive) return { kind: 'waiting', state: { ...state, misses: 0 } };
  const next = { ...state, misses: state.misses + 1 };
  if (next.misses < MISSES_BEFORE_ENDING) return { kind: 'waiting', state: next };
  return ours
    ? {
        kind: 'ended',
        state: next,
        code: 'failed',
        reason: 'pod-stopped',
        message: `the pod ${state.podId} stopped (${status.status}) before the model was ready`,
      }
    : {
        kind: 'ended',
        state: next,
        code: 'failed',
        reason: 'pod-gone',
        message: `the pod ${state.podId} is no longer on the volume (the gateway shows ${status.podId ?? 'no pod'})`,
      };
}

/** One readable GET answer, judged against what the wait knows. Pure. */
export function judgeRead(state: WaitState, status: PodStatus): ReadVerdict {
  const learned = learnFromRecord(state, status);
  if (learned.kind === 'ended') return learned;
  if (isReady(learned.state, status)) return { kind: 'ready', state: { ...learned.state, misses: 0 } };
  return watchPod(learned.state, status);
}
