import { judgeAnswer } from '../gateway/answer-verdict';
import type { GatewayAnswer } from '../gateway/gateway-answer';
import { readStartAnswer, type StartAnswer } from '../gateway/start-answer';
import { CliError } from '../output/cli-error';
import type { ProgressReporter } from '../output/progress-reporter';
import type { Clock } from '../time/clock';
import { formatDuration } from '../time/duration';
import { POLL_INTERVAL_MS } from './change-feed';
import type { WaitLimits } from './ready-wait';
import type { WaitTracker } from './wait-tracker';

export interface WakeRequestDeps {
  readonly clock: Clock;
  /** POST …/start; `signal` aborts it (Ctrl-C, or the wait's deadline). */
  readonly postStart: (signal: AbortSignal) => Promise<GatewayAnswer>;
  readonly progress: ProgressReporter;
  readonly interrupt: AbortSignal;
}

/** A signal that aborts at `deadline` on the clock, and a way to drop its timer. */
function deadlineSignal(clock: Clock, deadline: number): { signal: AbortSignal; cancel(): void } {
  const fired = new AbortController();
  const cancelled = new AbortController();
  void clock.sleep(deadline - clock.now(), cancelled.signal).then(() => {
    if (!cancelled.signal.aborted) fired.abort();
  });
  return { signal: fired.signal, cancel: () => cancelled.abort() };
}

/**
 * Asks for the wake, again after a transient failure until the deadline: safe, since a start joins the
 * wake in flight (same attemptId) and a pod up answers AlreadyRunning. A definite refusal ends it.
 */
export async function requestWake(
  deps: WakeRequestDeps,
  limits: WaitLimits,
  tracker: WaitTracker,
): Promise<StartAnswer> {
  for (;;) {
    const deadline = deadlineSignal(deps.clock, limits.deadline);
    let answer: GatewayAnswer | null = null;
    try {
      answer = await deps.postStart(AbortSignal.any([deps.interrupt, deadline.signal]));
    } catch (error) {
      if (deps.interrupt.aborted || !deadline.signal.aborted) throw error;
    } finally {
      deadline.cancel();
    }
    const verdict = answer === null ? null : judgeAnswer(answer);
    if (verdict?.kind === 'final') throw verdict.error.withDefaults(tracker.fields());
    const start = verdict?.kind === 'ok' ? readStartAnswer(verdict.body) : null;
    if (start !== null) return start;
    const reason =
      verdict === null
        ? 'the start request was still unanswered'
        : verdict.kind === 'transient'
          ? verdict.reason
          : 'the start answer was unreadable';
    const remaining = limits.deadline - deps.clock.now();
    if (remaining <= 0) {
      throw new CliError(
        'wait_timeout',
        `${reason} when the wait ran out after ${formatDuration(limits.timeoutMs)}; a wake may be in flight: check \`podwarden status ${tracker.name}\``,
        tracker.fields(),
      );
    }
    deps.progress.update(`${reason}; asking again (a start joins a wake in flight)`, limits.timeoutMs);
    await deps.clock.sleep(Math.min(POLL_INTERVAL_MS, remaining), deps.interrupt);
    if (deps.interrupt.aborted) throw new Error('interrupted');
  }
}
