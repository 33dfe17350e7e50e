import { Inject, Injectable } from '@nestjs/common';
import { UnrecoverableError, type Job } from 'bullmq';
import { findPod, type PodConfig, type PodwardenConfig } from '@podwarden/policies';
import {
  ActionLog,
  BillableIntents,
  BudgetLedger,
  CONFIG,
  LOGGER,
  PodEventPublisher,
  RUNPOD_CLIENT,
  StatusPublisher,
  WakeGate,
  WakeHistory,
  WakeProgressStore,
  validateWakeJobData,
  type AppLogger,
  type PodEventSink,
  type WakeJobResult,
} from '@podwarden/platform';
import type { Sleep } from './sleeper';
import { WakeAttempt, type WakeAttemptDependencies } from './wake-attempt';
import type { WakeControlPlane } from './wake-dependencies';
import type { WakeRequest } from './wake-request';
import { asRunAgain, runsStartedOf } from './wake-run-again';

/** The clock, the sleeps and the gate's timing: values (WakerModule's), so specs never wait. */
export interface WakeTiming {
  readonly now: () => Date;
  readonly sleep: Sleep;
  readonly joinSleep: Sleep;
  readonly gateLeaseMs: number;
  readonly joinPollMs: number;
}

export const WAKE_TIMING = Symbol('WakeTiming');

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
@Injectable()
export class WakeJobRunner {
  private readonly deps: WakeJobRunnerDependencies;
  private readonly attempts: WakeAttempt;

  constructor(
    @Inject(CONFIG) config: PodwardenConfig,
    @Inject(LOGGER) logger: AppLogger,
    @Inject(RUNPOD_CLIENT) client: WakeControlPlane,
    @Inject(ActionLog) actions: WakeJobRunnerDependencies['actions'],
    @Inject(BillableIntents) intents: WakeJobRunnerDependencies['intents'],
    @Inject(WakeHistory) history: WakeJobRunnerDependencies['history'],
    @Inject(WakeProgressStore) progress: WakeJobRunnerDependencies['progress'],
    @Inject(WakeGate) gate: WakeJobRunnerDependencies['gate'],
    @Inject(StatusPublisher) status: Pick<StatusPublisher, 'begin' | 'publish' | 'invalidate'>,
    @Inject(PodEventPublisher) events: PodEventSink,
    @Inject(BudgetLedger) ledger: Pick<BudgetLedger, 'reserve'>,
    @Inject(WAKE_TIMING) timing: WakeTiming,
  ) {
    const stores = { actions, intents, history, progress, gate, status, events, ledger };
    this.deps = { config, logger, client, ...stores, ...timing };
    this.attempts = new WakeAttempt(this.deps);
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
      const entry = await this.runAgainOr(request, signal, () =>
        gate.enter(pod.volumeId, attemptId, gateLeaseMs),
      );
      if (entry.kind === 'acquired') {
        return gate.hold(pod.volumeId, entry.lease, gateLeaseMs, (fence) =>
          this.attempts.run(request, signal, fence),
        );
      }
      const joined = await this.runAgainOr(request, signal, () =>
        this.join(pod, entry.holderAttemptId, signal),
      );
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
    return {
      pod,
      attemptId: String(job.id),
      requestedBy: check.data.requestedBy ?? null,
      runsStarted: runsStartedOf(job),
    };
  }

  /** The gate's reads and writes decide nothing yet: one that throws runs the job again, below the cap. */
  private async runAgainOr<T>(
    request: WakeRequest,
    signal: AbortSignal | undefined,
    step: () => Promise<T>,
  ): Promise<T> {
    try {
      return await step();
    } catch (error) {
      throw asRunAgain(error, request.runsStarted, signal);
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
}
