import { Inject, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  IDLE_TICK_QUEUE,
  LOGGER,
  RunningJobs,
  WorkerMetrics,
  WorkerState,
  closeWorkerWithinGrace,
  errorMessage,
  type AppLogger,
} from '@podwarden/platform';
import { IdleTickService, type PodTickOutcome } from './idle/idle-tick.service';
import { scheduledAtOf } from './idle/scheduled-at';

/** What a tick job returns (shown in Bull Board): each pod's phase/streak, its stop, or why it was skipped. */
export interface IdleTickJobResult {
  readonly pods: Record<string, string>;
}

/**
 * Consumes the idle ticks: each tick is one job taken by one worker of any
 * replica. Its worker options (concurrency 1, a lock longer than two ticks,
 * one stall re-delivery) are applied from config in `IdleMonitorModule.forRoot`.
 * The job's AbortSignal reaches every RunPod read of the tick.
 */
@Processor(IDLE_TICK_QUEUE)
export class IdleTickProcessor
  extends WorkerHost
  implements BeforeApplicationShutdown, OnApplicationBootstrap
{
  private readonly running = new RunningJobs();

  constructor(
    private readonly tick: IdleTickService,
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    private readonly state: WorkerState,
    private readonly metrics: WorkerMetrics,
  ) {
    super();
  }

  process(job: Job, _token?: string, signal?: AbortSignal): Promise<IdleTickJobResult> {
    return this.running.track(this.measured(job, signal));
  }

  onApplicationBootstrap(): void {
    this.state.attach(this.worker);
  }

  private async measured(job: Job, signal: AbortSignal | undefined): Promise<IdleTickJobResult> {
    const startedAt = Date.now();
    try {
      const outcomes = await this.tick.run(String(job.id), scheduledAtOf(job), signal);
      this.metrics.jobFinished(IDLE_TICK_QUEUE, 'completed', Date.now() - startedAt);
      await this.state.tickCompleted();
      return { pods: Object.fromEntries([...outcomes].map(([name, outcome]) => [name, summaryOf(outcome)])) };
    } catch (error) {
      this.metrics.jobFinished(IDLE_TICK_QUEUE, 'failed', Date.now() - startedAt);
      throw error;
    }
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined, error: Error): void {
    this.logger.warn({ jobId: job?.id, err: error.message }, 'idle tick failed');
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.error({ err: errorMessage(error) }, 'idle tick worker error');
  }

  /**
   * A tick is safe to run again (a re-run is recognised by its id), so on
   * shutdown the running one gets the grace period and is then handed back:
   * the worker closes without waiting further and its lock lapses.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await closeWorkerWithinGrace({
      worker: this.worker,
      running: this.running,
      graceMs: this.config.tuning.shutdownGraceMs,
      probeMs: this.config.tuning.redisReadTimeoutMs,
      logger: this.logger,
      what: 'idle tick',
      handBackMessage: 'idle tick still running at shutdown; handing it back',
    });
  }
}

function summaryOf(outcome: PodTickOutcome): string {
  if (outcome.kind === 'skipped') return `skipped:${outcome.why}`;
  const { phase, idleStreak } = outcome.record.state;
  return `${phase}/${idleStreak}${outcome.stop ? `/stop:${outcome.stop}` : ''}`;
}
