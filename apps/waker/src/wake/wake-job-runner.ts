import { UnrecoverableError, type Job } from 'bullmq';
import { classifyLastWake, findPod, proxyUrlFor, type PodConfig } from '@podwarden/policies';
import {
  validateWakeJobData,
  type WakeGate,
  type WakeHistory,
  type WakeJobResult,
  type WakeProgressStore,
} from '@podwarden/platform';
import type { Sleep } from './sleeper';
import { WakeRun, type WakeDependencies } from './wake-service';
import type { WakeResult } from './wake-result';

export interface WakeJobRunnerDependencies extends WakeDependencies {
  readonly gate: WakeGate;
  readonly history: Pick<WakeHistory, 'requested' | 'completed'>;
  readonly progress: WakeProgressStore;
  /** Gate lease; renewed at a third of it while the wake runs. */
  readonly gateLeaseMs: number;
  /** How often a joiner checks whether the wake it joined has finished. */
  readonly joinPollMs: number;
  readonly joinSleep: Sleep;
}

/**
 * Turns one `wake` job into at most one wake per volume. The job id is the
 * attempt id; a job that finds another attempt holding the volume's gate
 * joins it: it makes no RunPod call and returns that attempt's result.
 */
export class WakeJobRunner {
  constructor(private readonly deps: WakeJobRunnerDependencies) {}

  async process(job: Job, signal?: AbortSignal): Promise<WakeJobResult> {
    const parsed = await validateWakeJobData(job.data);
    if (!parsed.ok) throw new UnrecoverableError(parsed.reason);
    const pod = findPod(this.deps.config, parsed.data.podName);
    if (!pod)
      throw new UnrecoverableError(
        `invalid wake payload: unknown pod name ${JSON.stringify(parsed.data.podName)}`,
      );
    const attemptId = String(job.id);
    const requestedBy = parsed.data.requestedBy ?? null;

    if (pod.volumeId.trim() === '' || !this.deps.client.isConfigured) {
      // Nothing to gate: no volume, no RunPod call. Still recorded, so the refusal is visible.
      return this.runRecorded(pod, attemptId, requestedBy, signal);
    }

    for (;;) {
      const entry = await this.deps.gate.enter(pod.volumeId, attemptId, this.deps.gateLeaseMs);
      if (entry.kind === 'acquired') {
        const renew = setInterval(
          () => {
            void this.deps.gate.renew(pod.volumeId, attemptId, this.deps.gateLeaseMs).catch(() => undefined);
          },
          Math.max(100, Math.floor(this.deps.gateLeaseMs / 3)),
        );
        try {
          return await this.runRecorded(pod, attemptId, requestedBy, signal);
        } finally {
          clearInterval(renew);
          await this.deps.gate.leave(pod.volumeId, attemptId).catch(() => undefined);
        }
      }
      const joined = await this.join(pod, entry.holderAttemptId, signal);
      if (joined) return { ...joined, joined: true };
      // The holder vanished without a result (its worker died and the lease
      // ran out): try the gate again; a fresh wake re-reads the volume first.
    }
  }

  private async join(
    pod: PodConfig,
    holderAttemptId: string,
    signal?: AbortSignal,
  ): Promise<WakeJobResult | null> {
    this.deps.logger.info(
      { pod: pod.name, attemptId: holderAttemptId },
      `joining wake ${holderAttemptId} already in flight`,
    );
    for (;;) {
      const result = await this.deps.gate.readResult(holderAttemptId);
      if (result) return result;
      const holder = await this.deps.gate.holder(pod.volumeId);
      if (holder !== holderAttemptId) {
        // Published just before leaving: read once more before giving up on it.
        return this.deps.gate.readResult(holderAttemptId);
      }
      await this.deps.joinSleep(this.deps.joinPollMs, signal);
    }
  }

  private async runRecorded(
    pod: PodConfig,
    attemptId: string,
    requestedBy: string | null,
    signal?: AbortSignal,
  ): Promise<WakeJobResult> {
    const requestedAt = this.deps.now().toISOString();
    await this.deps.history.requested({ podName: pod.name, attemptId, requestedAt, requestedBy });
    const reporter = {
      report: async (phase: string, message: string): Promise<void> => {
        try {
          await this.deps.progress.set(pod.name, {
            attemptId,
            phase,
            message,
            updatedAt: this.deps.now().toISOString(),
          });
        } catch (error) {
          this.deps.logger.warn({ pod: pod.name, err: String(error) }, 'wake progress not written');
        }
      },
    };
    let result: WakeResult;
    try {
      result = await new WakeRun(this.deps, pod, reporter, signal).run();
    } catch (error) {
      if (signal?.aborted) throw error; // handed back on shutdown: the re-run records the outcome
      const reason = error instanceof Error ? error.message : String(error);
      this.deps.logger.error({ pod: pod.name, attemptId, err: reason }, `wake threw: ${reason}`);
      const failed = this.jobResult(pod, attemptId, {
        outcome: 'Failed',
        failureKind: 'provider',
        podId: null,
        gpuId: null,
        pricePerHour: null,
        message: `wake threw: ${reason}`,
        candidatesConsidered: 0,
        lastProviderStatus: null,
      });
      await this.deps.history.completed({
        podName: pod.name,
        attemptId,
        requestedAt,
        requestedBy,
        completedAt: this.deps.now().toISOString(),
        outcome: classifyLastWake({ kind: 'threw' }),
        wakeOutcome: 'Exception',
        reason: failed.message,
        podId: null,
        gpuId: null,
        pricePerHour: null,
        candidatesConsidered: 0,
        lastProviderStatus: null,
      });
      await this.finish(pod, failed);
      throw error;
    }
    const jobResult = this.jobResult(pod, attemptId, result);
    await this.deps.history.completed({
      podName: pod.name,
      attemptId,
      requestedAt,
      requestedBy,
      completedAt: this.deps.now().toISOString(),
      outcome: classifyLastWake({
        kind: 'returned',
        outcome: result.outcome,
        failureKind: result.failureKind ?? undefined,
      }),
      wakeOutcome: result.outcome,
      reason: result.message,
      podId: result.podId,
      gpuId: result.gpuId,
      pricePerHour: result.pricePerHour,
      candidatesConsidered: result.candidatesConsidered,
      lastProviderStatus: result.lastProviderStatus,
    });
    const level = result.outcome === 'Failed' ? 'warn' : 'info';
    this.deps.logger[level](
      { pod: pod.name, attemptId, outcome: result.outcome, podId: result.podId },
      `wake ${result.outcome}: ${result.message}`,
    );
    await this.finish(pod, jobResult);
    return jobResult;
  }

  private async finish(pod: PodConfig, result: WakeJobResult): Promise<void> {
    await this.deps.gate.publishResult(result).catch(() => undefined);
    await this.deps.progress.clear(pod.name, result.attemptId).catch(() => undefined);
  }

  private jobResult(pod: PodConfig, attemptId: string, result: WakeResult): WakeJobResult {
    return {
      name: pod.name,
      attemptId,
      outcome: result.outcome,
      failureKind: result.failureKind,
      podId: result.podId,
      gpuId: result.gpuId,
      pricePerHour: result.pricePerHour,
      proxyUrl: result.podId
        ? proxyUrlFor(this.deps.config.runpod.proxyUrlTemplate, result.podId, pod.podPort)
        : null,
      message: result.message,
      joined: false,
    };
  }
}
