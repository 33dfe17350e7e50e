/** How a wake ended, as the start route reports it. */
export type WakeOutcome = 'AlreadyRunning' | 'Started' | 'Created' | 'Waiting' | 'Failed';

/**
 * Why a Failed wake failed. `refused`: a fail-closed guard declined and nothing
 * was billed (unconfigured, unreadable lookup, template unset, no eligible GPU
 * under the cap). `provider`: RunPod rejected or broke the attempt.
 */
export type WakeFailureKind = 'refused' | 'provider';

/** The wake history's verdict on a finished wake. */
export type LastWakeOutcome = 'Succeeded' | 'Refused' | 'TimedOut' | 'Failed';

export type WakeEnding =
  { kind: 'returned'; outcome: WakeOutcome; failureKind?: WakeFailureKind } | { kind: 'threw' };

export function classifyLastWake(ending: WakeEnding): LastWakeOutcome {
  if (ending.kind === 'threw') {
    return 'Failed';
  }
  switch (ending.outcome) {
    case 'AlreadyRunning':
    case 'Started':
    case 'Created':
      return 'Succeeded';
    case 'Waiting':
      // Not Running within the poll budget; a start or create may still be billing.
      return 'TimedOut';
    case 'Failed':
      // Only an explicit refusal may claim nothing was billed.
      return ending.failureKind === 'refused' ? 'Refused' : 'Failed';
  }
}

export function isSuccessfulWake(outcome: WakeOutcome): boolean {
  return outcome === 'AlreadyRunning' || outcome === 'Started' || outcome === 'Created';
}

/** 202 tells the caller something is in flight and to poll again; 409 that nothing is. */
export function httpStatusForWake(outcome: WakeOutcome): 200 | 202 | 409 {
  if (isSuccessfulWake(outcome)) {
    return 200;
  }
  return outcome === 'Waiting' ? 202 : 409;
}
