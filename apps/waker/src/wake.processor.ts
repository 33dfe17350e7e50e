import { OnWorkerEvent, Processor } from '@nestjs/bullmq';
import { DelayedError, type Job } from 'bullmq';
import { MAX_WAKE_RUNS, WAKE_RERUN_DELAY_MS } from '@podwarden/policies';
import {
  TrackedWorkerHost,
  UNREADABLE_JOB_REASON,
  WAKE_QUEUE,
  WorkerHostKit,
  errorMessage,
  failUnreadableJobs,
  type WakeJobResult,
} from '@podwarden/platform';
import { WakeJobRunner } from './wake/wake-job-runner';
import { WakeRunAgainError } from './wake/wake-run-again';

/**
 * Consumes the `wake` queue (options from WakerModule.forRoot); each job's AbortSignal reaches every RunPod
 * call and wait, so a cancelled job stops before its next call. At shutdown a wake still running after
 * SHUTDOWN_GRACE_MS is handed back, not failed: its lock lapses and its re-run re-reads the volume.
 */
@Processor(WAKE_QUEUE)
export class WakeProcessor extends TrackedWorkerHost {
  constructor(
    private readonly runner: WakeJobRunner,
    kit: WorkerHostKit,
  ) {
    super(kit, {
      what: 'wake',
      handBackMessage: 'a wake is still running at shutdown; handing its job back for re-delivery',
    });
  }

  // Three declared parameters: BullMQ hands a signal only to a processor that takes one.
  process(job: Job, token?: string, signal?: AbortSignal): Promise<WakeJobResult> {
    const startedAt = Date.now();
    const work = this.runner.process(job, signal).catch((error: unknown) => this.putBack(job, token, error));
    work.then(
      (result) => this.kit.metrics.jobFinished(WAKE_QUEUE, result.outcome, Date.now() - startedAt),
      (error: unknown) =>
        this.kit.metrics.jobFinished(
          WAKE_QUEUE,
          error instanceof DelayedError ? 'requeued' : 'failed',
          Date.now() - startedAt,
        ),
    );
    return this.track(work);
  }

  /** A run that may run again goes back to the queue, delayed; any other throw fails the job as before. */
  private async putBack(job: Job, token: string | undefined, error: unknown): Promise<never> {
    if (!(error instanceof WakeRunAgainError) || token === undefined) throw error;
    this.kit.logger.warn(
      { jobId: job.id, err: error.message },
      `wake run ${error.runsStarted} of at most ${MAX_WAKE_RUNS} threw; putting the job back to run again`,
    );
    // If Redis cannot take the move either, the job's lock lapses and the stalled check re-delivers it.
    await job.moveToDelayed(Date.now() + WAKE_RERUN_DELAY_MS, token);
    throw new DelayedError();
  }

  override onApplicationBootstrap(): void {
    super.onApplicationBootstrap();
    this.kit.logger.info(
      { queue: WAKE_QUEUE, prefix: this.kit.config.redis.prefix },
      'waker consuming wake jobs',
    );
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined, error: Error): void {
    this.kit.logger.warn(
      { jobId: job?.id, err: error.message },
      `wake job ${job?.id ?? '?'} failed: ${error.message}`,
    );
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.kit.logger.error({ err: error.message }, 'wake worker error');
    // What JSON.parse throws when BullMQ could not build a job: left alone it comes back after every stall check.
    if (error.name === 'SyntaxError') void this.failUnreadable();
  }

  private async failUnreadable(): Promise<void> {
    try {
      for (const jobId of await failUnreadableJobs(this.worker)) {
        this.kit.logger.warn({ jobId }, `wake job ${jobId} failed: ${UNREADABLE_JOB_REASON}`);
      }
    } catch (error) {
      this.kit.logger.warn({ err: errorMessage(error) }, 'could not look for unreadable wake jobs');
    }
  }
}
