import { judgeAnswer } from '../gateway/answer-verdict';
import type { GatewayAnswer } from '../gateway/gateway-answer';
import { readPodStatus, type PodStatus } from '../gateway/pod-status';
import type { StartAnswer } from '../gateway/start-answer';
import { CliError } from '../output/cli-error';
import type { ProgressReporter } from '../output/progress-reporter';
import type { Clock } from '../time/clock';
import { formatDuration } from '../time/duration';
import type { ChangeFeed } from './change-feed';
import { describeWait } from './wait-description';
import { afterUnreadable, initialWaitState } from './wait-state';
import type { WaitTracker } from './wait-tracker';
import { judgeRead, MISSES_BEFORE_ENDING } from './wait-verdict';

export interface ReadyWaitDeps {
  readonly clock: Clock;
  readonly readStatus: (signal: AbortSignal) => Promise<GatewayAnswer>;
  readonly feed: ChangeFeed;
  readonly progress: ProgressReporter;
  /** Aborted by the first Ctrl-C: the wait throws at once and the caller reports it. */
  readonly interrupt: AbortSignal;
}

export interface WaitLimits {
  /** On the deps' clock, epoch ms. */
  readonly deadline: number;
  readonly timeoutMs: number;
}

function throwIfInterrupted(signal: AbortSignal): void {
  if (signal.aborted) throw new Error('interrupted');
}

/**
 * Reads the status until the model is ready on the wake's pod. Only a definite answer ends it early (401,
 * 403, unknown pod twice, wake Failed or Refused, its pod gone); errors and unreadable answers never do.
 * A read that succeeds at the deadline is a success; nothing is stopped when it ends.
 */
export async function waitUntilReady(
  deps: ReadyWaitDeps,
  start: StartAnswer,
  limits: WaitLimits,
  tracker: WaitTracker,
): Promise<PodStatus> {
  let state = initialWaitState(start);
  tracker.state = state;
  let unknownPodReads = 0;
  for (;;) {
    const verdict = judgeAnswer(await deps.readStatus(deps.interrupt));
    throwIfInterrupted(deps.interrupt);
    const status = verdict.kind === 'ok' ? readPodStatus(verdict.body) : null;
    if (status !== null) {
      unknownPodReads = 0;
      tracker.lastStatus = status;
      const read = judgeRead(state, status);
      state = tracker.state = read.state;
      if (read.kind === 'ready') return status;
      if (read.kind === 'ended')
        throw new CliError(read.code, read.message, { reason: read.reason, ...tracker.fields() });
      deps.progress.update(describeWait(state, status), limits.timeoutMs);
    } else if (verdict.kind === 'final') {
      // One 404 may be a gateway mid-deploy; two in a row mean the pod name is gone.
      const tolerated = verdict.error.code === 'not_found' && ++unknownPodReads < MISSES_BEFORE_ENDING;
      if (!tolerated) throw verdict.error.withDefaults(tracker.fields());
      deps.progress.update(
        `the gateway does not know the pod (${verdict.error.message}); reading again`,
        limits.timeoutMs,
      );
    } else {
      unknownPodReads = 0;
      state = tracker.state = afterUnreadable(state);
      const reason = verdict.kind === 'transient' ? verdict.reason : 'the status answer was unreadable';
      deps.progress.update(`${reason}; still waiting`, limits.timeoutMs);
    }
    const remaining = limits.deadline - deps.clock.now();
    if (remaining <= 0) {
      throw new CliError(
        'wait_timeout',
        `the model was not ready within ${formatDuration(limits.timeoutMs)}; nothing was stopped, the pod may still be billing`,
        tracker.fields(),
      );
    }
    await deps.feed.next(remaining, deps.interrupt);
    throwIfInterrupted(deps.interrupt);
  }
}
