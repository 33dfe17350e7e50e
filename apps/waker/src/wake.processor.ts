import { Inject, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import type { PodwardenConfig } from '@podwarden/policies';
import { CONFIG, LOGGER, WAKE_QUEUE, type AppLogger, type WakeJobResult } from '@podwarden/platform';
import { RunningJobs } from './running-jobs';
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
  ) {
    super();
  }

  // Three declared parameters: BullMQ hands a signal only to a processor that takes one.
  process(job: Job, _token?: string, signal?: AbortSignal): Promise<WakeJobResult> {
    return this.running.track(this.runner.process(job, signal));
  }

  onApplicationBootstrap(): void {
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
   * SHUTDOWN_GRACE_MS to finish (the worker then closes as usual). One still
   * running after that is handed back, not failed and not cancelled: the
   * worker closes without waiting, its lock lapses, and BullMQ re-delivers the
   * job, whose re-run starts from a fresh read of the volume.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.pause(true);
    if (await this.running.settledWithin(this.config.tuning.shutdownGraceMs)) return;
    this.logger.warn('a wake is still running at shutdown; handing its job back for re-delivery');
    await this.worker.close(true);
  }
}
