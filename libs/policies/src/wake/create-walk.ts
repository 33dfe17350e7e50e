/** How one POST /pods answer moves the walk over the ranked candidates. */
export type CreateAttemptClass =
  'Created' | 'CreatedWithoutId' | 'TryNextCandidate' | 'RetrySameCandidate' | 'Abort';

/**
 * Classifies one create answer. Status 0 is a transport failure: a create that
 * timed out may still have placed a pod, so it is never retried blind.
 */
export function classifyCreateAttempt(httpStatus: number, podId: string | null): CreateAttemptClass {
  if (httpStatus >= 200 && httpStatus <= 299) {
    // Any 2xx may have placed a billing pod; one we cannot name cannot be driven or stopped.
    return trimmedId(podId) === '' ? 'CreatedWithoutId' : 'Created';
  }
  switch (httpStatus) {
    case 400: // this GPU cannot be placed here right now
    case 403:
      return 'TryNextCandidate';
    case 429: // account-level throttle, not per GPU
      return 'RetrySameCandidate';
    default:
      // 5xx is an outage, not a verdict on the GPU; 402/422 and anything unrecognised end the walk.
      return httpStatus >= 500 && httpStatus <= 599 ? 'RetrySameCandidate' : 'Abort';
  }
}

/**
 * Retries shared by the whole walk and never refilled on a candidate change:
 * throttling and outages are not per GPU, so moving on would only multiply calls.
 */
export const CREATE_RETRY_BUDGET = 2;

export interface CreateWalkState {
  candidateCount: number;
  /** The candidate the pending (or last) POST is for. */
  candidateIndex: number;
  retriesLeft: number;
  /** POSTs answered so far. */
  calls: number;
}

export type CreateWalkEnding = 'Exhausted' | 'RetriesExhausted' | 'Aborted' | 'CreatedWithoutId';

export type CreateWalkStep =
  | { kind: 'post'; candidateIndex: number; retry: boolean; state: CreateWalkState }
  | { kind: 'created'; candidateIndex: number; podId: string; state: CreateWalkState }
  | { kind: 'ended'; ending: CreateWalkEnding; lastStatus: number | null; state: CreateWalkState };

export type CreateWalkEnded = Extract<CreateWalkStep, { kind: 'ended' }>;

export interface CreateAttemptResult {
  readonly httpStatus: number;
  readonly podId: string | null;
}

export function startCreateWalk(candidateCount: number): CreateWalkStep {
  const state: CreateWalkState = {
    candidateCount,
    candidateIndex: 0,
    retriesLeft: CREATE_RETRY_BUDGET,
    calls: 0,
  };
  if (!(candidateCount >= 1)) {
    return { kind: 'ended', ending: 'Exhausted', lastStatus: null, state };
  }
  return { kind: 'post', candidateIndex: 0, retry: false, state };
}

/**
 * Takes the answer to the POST a 'post' step asked for. A state from a
 * 'created' or 'ended' step has no pending POST and is refused with a throw:
 * answering it would be a call the walk never asked for.
 */
export function advanceCreateWalk(state: CreateWalkState, result: CreateAttemptResult): CreateWalkStep {
  if (!hasPendingPost(state)) {
    throw new RangeError('advanceCreateWalk: this state has no pending POST (the walk already ended)');
  }
  const answered: CreateWalkState = { ...state, calls: state.calls + 1 };
  const lastStatus = result.httpStatus;
  switch (classifyCreateAttempt(result.httpStatus, result.podId)) {
    case 'Created':
      return {
        kind: 'created',
        candidateIndex: state.candidateIndex,
        podId: trimmedId(result.podId),
        state: answered,
      };
    case 'CreatedWithoutId':
      return { kind: 'ended', ending: 'CreatedWithoutId', lastStatus, state: answered };
    case 'Abort':
      return { kind: 'ended', ending: 'Aborted', lastStatus, state: answered };
    case 'TryNextCandidate': {
      const next = state.candidateIndex + 1;
      if (next >= state.candidateCount) {
        return { kind: 'ended', ending: 'Exhausted', lastStatus, state: answered };
      }
      return {
        kind: 'post',
        candidateIndex: next,
        retry: false,
        state: { ...answered, candidateIndex: next },
      };
    }
    case 'RetrySameCandidate': {
      if (state.retriesLeft <= 0) {
        return { kind: 'ended', ending: 'RetriesExhausted', lastStatus, state: answered };
      }
      return {
        kind: 'post',
        candidateIndex: state.candidateIndex,
        retry: true,
        state: { ...answered, retriesLeft: state.retriesLeft - 1 },
      };
    }
  }
}

// Every POST either moves to the next candidate or spends a retry, so a state
// with a pending POST satisfies calls = candidateIndex + retries spent; a
// finished step's state has one call more and fails the check.
function hasPendingPost(state: CreateWalkState): boolean {
  const retriesSpent = CREATE_RETRY_BUDGET - state.retriesLeft;
  return (
    state.candidateIndex >= 0 &&
    state.candidateIndex < state.candidateCount &&
    state.retriesLeft >= 0 &&
    state.retriesLeft <= CREATE_RETRY_BUDGET &&
    state.calls === state.candidateIndex + retriesSpent
  );
}

/** Runs the walk over scripted answers until it stops asking for a POST or the answers run out. */
export function replayCreateWalk(
  candidateCount: number,
  results: ReadonlyArray<CreateAttemptResult>,
): { steps: CreateWalkStep[]; calls: number } {
  const steps: CreateWalkStep[] = [startCreateWalk(candidateCount)];
  let step = steps[0];
  for (const result of results) {
    if (step.kind !== 'post') {
      break;
    }
    step = advanceCreateWalk(step.state, result);
    steps.push(step);
  }
  return { steps, calls: step.state.calls };
}

/** "ended Exhausted after 1 of 1 candidate(s) and 0 retries", for the failed wake's detail and logs. */
export function describeCreateEnding(step: CreateWalkEnded): string {
  const { state } = step;
  const candidatesTried = state.calls === 0 ? 0 : state.candidateIndex + 1;
  const retries = CREATE_RETRY_BUDGET - state.retriesLeft;
  return `ended ${step.ending} after ${candidatesTried} of ${state.candidateCount} candidate(s) and ${retries} retries`;
}

function trimmedId(podId: string | null): string {
  return podId === null ? '' : podId.trim();
}
