import { Inject, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  LOGGER,
  RunningJobs,
  WAKE_QUEUE,
  WorkerMetrics,
  WorkerState,
  closeWorkerWithinGrace,
  type AppLogger,
  type WakeJobResult,
} from '@podwarden/platform';
import { WakeJobRunner } from './wake/wake-job-runner';

/**
 * The consumer of the `wake` queue. Its worker options come from config
 * (WakerModule.forRoot applies them); BullMQ's AbortSignal for each job goes
 * down to every RunPod call and every wait of the wake, so a cancelled job
 * (Worker.cancelJob) stops before its next call.
 */
@Processor(WAKE_QUEUE)
export class WakeProcessor extends WorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly running = new RunningJobs();

  constructor(
    private readonly runner: WakeJobRunner,
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    private readonly state: WorkerState,
    private readonly metrics: WorkerMetrics,
  ) {
    super();
  }

  // Three declared parameters: BullMQ hands a signal only to a processor that takes one.
  process(job: Job, _token?: string, signal?: AbortSignal): Promise<WakeJobResult> {
    const startedAt = Date.now();
    const work = this.runner.process(job, signal);
    work.then(
      (result) => this.metrics.jobFinished(WAKE_QUEUE, result.outcome, Date.now() - startedAt),
      () => this.metrics.jobFinished(WAKE_QUEUE, 'failed', Date.now() - startedAt),
    );
    return this.running.track(work);
  }

  onApplicationBootstrap(): void {
    this.state.attach(this.worker);
    this.logger.info({ queue: WAKE_QUEUE, prefix: this.config.redis.prefix }, 'waker consuming wake jobs');
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined, error: Error): void {
    this.logger.warn(
      { jobId: job?.id, err: error.message },
      `wake job ${job?.id ?? '?'} failed: ${error.message}`,
    );
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.error({ err: error.message }, 'wake worker error');
  }

  /**
   * Before the worker closes: take no new job and give a running wake
   * SHUTDOWN_GRACE_MS to finish. One still running after that is handed back,
   * not failed and not cancelled: the worker closes without waiting, its lock
   * lapses, and BullMQ re-delivers the job, whose re-run starts from a fresh
   * read of the volume. Without Redis the close does not wait for it either.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await closeWorkerWithinGrace({
      worker: this.worker,
      running: this.running,
      graceMs: this.config.tuning.shutdownGraceMs,
      probeMs: this.config.tuning.redisReadTimeoutMs,
      logger: this.logger,
      what: 'wake',
      handBackMessage: 'a wake is still running at shutdown; handing its job back for re-delivery',
    });
  }
}
