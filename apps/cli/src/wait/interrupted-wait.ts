import type { CommandContext } from '../command-context';
import { judgeAnswer } from '../gateway/answer-verdict';
import { podPath } from '../gateway/gateway-client';
import { readPodStatus } from '../gateway/pod-status';
import { CliError } from '../output/cli-error';
import type { WaitTracker } from './wait-tracker';

/** The last status read after a Ctrl-C is bounded: the person asked to stop waiting. */
export const FINAL_READ_TIMEOUT_MS = 5_000;

const NOTHING_STOPPED = 'nothing was stopped: the wake carries on and the pod may be billing';

export function interruptedError(tracker: WaitTracker, message: string): CliError {
  return new CliError('wait_interrupted', message, tracker.fields());
}

/** What a second Ctrl-C prints before it exits: whatever is known by then. */
export function interruptedTwice(tracker: WaitTracker): CliError {
  return interruptedError(
    tracker,
    `interrupted again before the last status read answered; ${NOTHING_STOPPED}`,
  );
}

/**
 * The first Ctrl-C: when the wake's pod is not known yet (the start was still
 * unanswered, or the wake still in flight), one bounded status read names
 * what may be billing before the error is printed.
 */
export async function interruptedAfterFinalRead(
  context: CommandContext,
  tracker: WaitTracker,
): Promise<CliError> {
  if (tracker.state?.podId != null) return interruptedError(tracker, `interrupted; ${NOTHING_STOPPED}`);
  context.progress(tracker.name).note('interrupted; reading the status once more (Ctrl-C again to exit now)');
  const verdict = judgeAnswer(
    await context.client.get(podPath(tracker.name), { timeoutMs: FINAL_READ_TIMEOUT_MS }),
  );
  const status = verdict.kind === 'ok' ? readPodStatus(verdict.body) : null;
  if (status === null) {
    const why = verdict.kind === 'transient' ? verdict.reason : 'the answer was unreadable';
    return interruptedError(tracker, `interrupted; the last status read failed (${why}); ${NOTHING_STOPPED}`);
  }
  tracker.learnFromFinalRead(status);
  return interruptedError(tracker, `interrupted; ${NOTHING_STOPPED}`);
}
