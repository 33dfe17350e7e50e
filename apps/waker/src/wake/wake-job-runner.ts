import { UnrecoverableError, type Job } from 'bullmq';
import { findPod, type PodConfig } from '@podwarden/policies';
import { validateWakeJobData, type WakeGate, type WakeJobResult } from '@podwarden/platform';
import type { Sleep } from './sleeper';
import { WakeAttempt, type WakeAttemptDependencies } from './wake-attempt';
import type { WakeRequest } from './wake-request';

export interface WakeJobRunnerDependencies extends WakeAttemptDependencies {
  readonly gate: Pick<WakeGate, 'enter' | 'hold' | 'holder' | 'readResult' | 'publishResult'>;
  /** Gate lease; renewed while the wake runs. */
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
  private readonly attempts: WakeAttempt;

  constructor(private readonly deps: WakeJobRunnerDependencies) {
    this.attempts = new WakeAttempt(deps);
  }

  async process(job: Job, signal?: AbortSignal): Promise<WakeJobResult> {
    const request = await this.requestOf(job);
    const { pod, attemptId } = request;
    if (pod.volumeId.trim() === '' || !this.deps.client.isConfigured) {
      // Nothing to gate: no volume, no RunPod call. Still recorded, so the refusal is visible.
      return this.attempts.run(request, signal);
    }
    const { gate, gateLeaseMs } = this.deps;
    for (;;) {
      const entry = await gate.enter(pod.volumeId, attemptId, gateLeaseMs);
      if (entry.kind === 'acquired') {
        return gate.hold(pod.volumeId, entry.lease, gateLeaseMs, (fence) =>
          this.attempts.run(request, signal, fence),
        );
      }
      const joined = await this.join(pod, entry.holderAttemptId, signal);
      if (joined) return { ...joined, joined: true };
      // The holder vanished without a result (its worker died and the lease
      // ran out): try the gate again; a fresh wake re-reads the volume first.
    }
  }

  /** Parse, do not trust: an invalid payload fails the job for good, before any RunPod call. */
  private async requestOf(job: Job): Promise<WakeRequest> {
    const check = await validateWakeJobData(job.data);
    if (!check.ok) throw new UnrecoverableError(check.reason);
    const pod = findPod(this.deps.config, check.data.podName);
    if (!pod) {
      throw new UnrecoverableError(
        `invalid wake payload: unknown pod name ${JSON.stringify(check.data.podName)}`,
      );
    }
    return { pod, attemptId: String(job.id), requestedBy: check.data.requestedBy ?? null };
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
}
