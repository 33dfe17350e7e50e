import { classifyLastWake, proxyUrlFor } from '@podwarden/policies';
import {
  PREWAKE_REQUESTER,
  errorMessage,
  FenceLostError,
  wakeReportOf,
  type WakeCompletion,
  type WakeGate,
  type WakeHistory,
  type WakeJobResult,
  type WakeProgressStore,
} from '@podwarden/platform';
import type { WakeDependencies } from './wake-dependencies';
import type { WakePhase, WakeProgressReporter } from './wake-progress-reporter';
import type { WakeRequest } from './wake-request';
import { providerFailed, stoppedByOperator, type WakeResult } from './wake-result';
import type { WakeRunFence } from './wake-run-context';
import { WakeRun } from './wake-run';
import { WakeRunAgainError, asRunAgain } from './wake-run-again';

export interface WakeAttemptDependencies extends WakeDependencies {
  readonly gate: Pick<WakeGate, 'publishResult'>;
  readonly history: Pick<WakeHistory, 'requested' | 'completed'>;
  readonly progress: Pick<WakeProgressStore, 'set' | 'clear'>;
}

/**
 * One wake that may run (it holds its volume's gate, or needs none): recorded
 * as Requested before RunPod is touched and Completed after, however it ends;
 * its result published for joiners and its progress shown while it runs.
 */
export class WakeAttempt {
  constructor(private readonly deps: WakeAttemptDependencies) {}

  async run(request: WakeRequest, signal?: AbortSignal, fence?: WakeRunFence): Promise<WakeJobResult> {
    const { pod, attemptId, requestedBy } = request;
    const requestedAt = this.deps.now().toISOString();
    await this.deps.history.requested({ podName: pod.name, attemptId, requestedAt, requestedBy });
    await this.deps.events.publish(pod.name, 'wake-requested', {
      attemptId,
      requestedBy: requestedBy ?? null,
    });
    let result: WakeResult;
    try {
      const trigger = requestedBy === PREWAKE_REQUESTER ? 'prewake' : 'wake';
      const reporter = this.reporterFor(request);
      result = await new WakeRun(this.deps, pod, reporter, signal, fence, attemptId, trigger).run();
    } catch (error) {
      if (error instanceof FenceLostError && error.state === 'stopped') {
        return this.finish(request, requestedAt, stoppedByOperator());
      }
      if (error instanceof FenceLostError) {
        // The run holding the gate now (a re-delivery of this job) records this attempt.
        this.deps.logger.warn(
          { pod: pod.name, attemptId, fenceToken: fence?.token },
          `wake fenced out: ${error.message}`,
        );
        throw error;
      }
      const again = asRunAgain(error, request.runsStarted, signal);
      // Nothing recorded: the run again reconciles what this one may have placed, then decides.
      if (again instanceof WakeRunAgainError) throw again;
      const thrown = providerFailed(thrownMessage(error, signal), {
        candidatesConsidered: 0,
        lastProviderStatus: null,
      });
      // A cancellation is someone's decision; anything else is a crash of the run.
      this.deps.logger[signal?.aborted ? 'warn' : 'error'](
        { pod: pod.name, attemptId, err: errorMessage(error) },
        thrown.message,
      );
      await this.complete(request, requestedAt, thrown, {
        wakeOutcome: 'Exception',
        outcome: classifyLastWake({ kind: 'threw' }),
      });
      throw error;
    }
    return this.finish(request, requestedAt, result);
  }

  private finish(request: WakeRequest, requestedAt: string, result: WakeResult): Promise<WakeJobResult> {
    const { pod, attemptId } = request;
    const level = result.outcome === 'Failed' ? 'warn' : 'info';
    this.deps.logger[level](
      { pod: pod.name, attemptId, outcome: result.outcome, podId: result.podId },
      `wake ${result.outcome}: ${result.message}`,
    );
    return this.complete(request, requestedAt, result, {
      wakeOutcome: result.outcome,
      outcome: classifyLastWake({
        kind: 'returned',
        outcome: result.outcome,
        failureKind: result.failureKind ?? undefined,
      }),
    });
  }

  /** The history's Completed record and the job result, from the one result; then the gate and progress let go. */
  private async complete(
    request: WakeRequest,
    requestedAt: string,
    result: WakeResult,
    verdict: Pick<WakeCompletion, 'wakeOutcome' | 'outcome'>,
  ): Promise<WakeJobResult> {
    const { pod, attemptId, requestedBy } = request;
    // The snapshot may predate what this wake saw last (a pod it just saw run): dropped before the
    // Completed record is visible, so no GET pairs this ending with an older pod state.
    await this.deps.status.invalidate(pod.name);
    await this.deps.history.completed({
      podName: pod.name,
      attemptId,
      requestedAt,
      requestedBy,
      completedAt: this.deps.now().toISOString(),
      ...verdict,
      reason: result.message,
      podId: result.podId,
      gpuId: result.gpuId,
      pricePerHour: result.pricePerHour,
      candidatesConsidered: result.candidatesConsidered,
      lastProviderStatus: result.lastProviderStatus,
    });
    const jobResult: WakeJobResult = {
      name: pod.name,
      attemptId,
      ...wakeReportOf(result),
      proxyUrl: result.podId
        ? proxyUrlFor(this.deps.config.runpod.proxyUrlTemplate, result.podId, pod.podPort)
        : null,
      joined: false,
    };
    await this.deps.gate.publishResult(jobResult).catch(() => undefined);
    await this.deps.events.publish(pod.name, 'wake-completed', {
      attemptId,
      ...verdict,
      reason: result.message,
      podId: result.podId,
      gpuId: result.gpuId,
      pricePerHour: result.pricePerHour,
      proxyUrl: jobResult.proxyUrl,
    });
    await this.deps.progress.clear(pod.name, attemptId).catch(() => undefined);
    return jobResult;
  }

  /** Progress is for GET's `wake` field only: a write that fails is logged and never fails the wake. */
  private reporterFor({ pod, attemptId }: WakeRequest): WakeProgressReporter {
    return {
      report: async (phase: WakePhase, message: string): Promise<void> => {
        await this.deps.events.publish(pod.name, 'wake-progress', { attemptId, phase, message });
        try {
          await this.deps.progress.set(pod.name, {
            attemptId,
            phase,
            message,
            updatedAt: this.deps.now().toISOString(),
          });
        } catch (error) {
          this.deps.logger.warn({ pod: pod.name, err: errorMessage(error) }, 'wake progress not written');
        }
      },
    };
  }
}

function thrownMessage(error: unknown, signal?: AbortSignal): string {
  // A cancellation already says so ("wake cancelled: …"); anything else is a crash of the run.
  return signal?.aborted ? errorMessage(error) : `wake threw: ${errorMessage(error)}`;
}
