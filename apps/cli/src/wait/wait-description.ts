import type { PodStatus } from '../gateway/pod-status';
import type { WaitState } from './wait-state';

/** One short line on where a wait stands, for the progress on stderr. */
export function describeWait(state: WaitState, status: PodStatus): string {
  const pod = status.podId === null ? 'no pod on the volume' : `pod ${status.podId} ${status.status}`;
  const model =
    status.readySince !== null
      ? 'model ready'
      : status.status === 'RUNNING'
        ? 'model loading'
        : 'model not loaded';
  return `${pod}, ${model}; ${describeWake(state, status)}`;
}

function describeWake(state: WaitState, status: PodStatus): string {
  switch (state.stage) {
    case 'in-flight': {
      const progress = status.wake?.attemptId === state.attemptId ? status.wake : null;
      return progress === null
        ? `wake ${state.attemptId} in flight`
        : `wake ${progress.phase}${progress.message === '' ? '' : `: ${progress.message}`}`;
    }
    case 'timed-out':
      return `wake ${state.attemptId} stopped polling before RUNNING; the pod may still come up`;
    case 'already-running':
    case 'succeeded':
      return `wake ${state.attemptId} done`;
  }
}
