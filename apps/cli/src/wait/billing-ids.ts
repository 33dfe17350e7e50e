import type { CommandContext } from '../command-context';
import { judgeAnswer } from '../gateway/answer-verdict';
import { podPath } from '../gateway/gateway-client';
import { readPodStatus } from '../gateway/pod-status';
import { CliError, type ErrorCode } from '../output/cli-error';
import type { WaitTracker } from './wait-tracker';

/** The last status read before an error is printed is bounded: the command is already ending. */
export const FINAL_READ_TIMEOUT_MS = 5_000;

/** Endings of a start after which a pod may be billing, so the error must name it. */
export const MAY_BE_BILLING: ReadonlySet<ErrorCode> = new Set(['failed', 'wait_timeout', 'wait_interrupted']);

const NOTHING_STOPPED = 'nothing was stopped: the wake carries on and the pod may be billing';

export function interrupted(tracker: WaitTracker): CliError {
  return new CliError('wait_interrupted', `interrupted; ${NOTHING_STOPPED}`, tracker.fields());
}

/** What a second Ctrl-C prints before it exits: whatever is known by then. */
export function interruptedTwice(tracker: WaitTracker): CliError {
  return new CliError(
    'wait_interrupted',
    `interrupted again before the last status read answered; ${NOTHING_STOPPED}`,
    tracker.fields(),
  );
}

/**
 * When an error ends a start before the wake's pod is known, one bounded status read names what may be
 * billing: the wake's pod from its record, else the pod on the volume. `signal` cuts the read short.
 */
export async function nameWhatMayBeBilling(
  context: CommandContext,
  tracker: WaitTracker,
  error: CliError,
  signal?: AbortSignal,
): Promise<CliError> {
  if (error.fields.podId != null || tracker.state?.podId != null) return error.withDefaults(tracker.fields());
  if (tracker.attemptId === null && typeof error.fields.attemptId === 'string')
    tracker.attemptId = error.fields.attemptId;
  const progress = context.progress(tracker.name);
  progress.note('reading the status once more to name what may be billing (Ctrl-C again to exit now)');
  try {
    const answer = await context.client.get(podPath(tracker.name), {
      timeoutMs: FINAL_READ_TIMEOUT_MS,
      signal,
    });
    const verdict = judgeAnswer(answer);
    const status = verdict.kind === 'ok' ? readPodStatus(verdict.body) : null;
    if (status !== null) tracker.learnFromFinalRead(status);
    else
      progress.note(
        `the last status read failed (${verdict.kind === 'transient' ? verdict.reason : 'unreadable'})`,
      );
  } catch {
    // Cut short by Ctrl-C: the error goes out with what is known.
  }
  return error.withDefaults(tracker.fields());
}
