import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Worker, type Job } from 'bullmq';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  ActionLog,
  CONFIG,
  LOGGER,
  RUNPOD_CLIENT,
  WAKE_QUEUE,
  WakeGate,
  WakeHistory,
  WakeProgressStore,
  createRedis,
  type AppLogger,
  type WakeJobResult,
} from '@podwarden/platform';
import type { RunPodClient } from '@podwarden/runpod-client';
import { realSleep } from './wake/sleeper';
import { WakeJobRunner } from './wake/wake-job-runner';

// How long shutdown waits for a running wake before handing the job back
// (its lock lapses and BullMQ re-delivers it; the re-run re-reads the volume).
const SHUTDOWN_GRACE_MS = 10_000;

/** The BullMQ worker of the `wake` queue. */
@Injectable()
export class WakeWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private worker: Worker | null = null;
  private readonly runner: WakeJobRunner;

  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    @Inject(RUNPOD_CLIENT) client: RunPodClient,
    actions: ActionLog,
    history: WakeHistory,
    progress: WakeProgressStore,
    gate: WakeGate,
  ) {
    this.runner = new WakeJobRunner({
      config,
      client,
      actions,
      history,
      progress,
      gate,
      logger,
      sleep: realSleep,
      joinSleep: realSleep,
      now: () => new Date(),
      gateLeaseMs: config.wake.jobLockMs,
      joinPollMs: 250,
    });
  }

  onApplicationBootstrap(): void {
    const lockMs = this.config.wake.jobLockMs;
    this.worker = new Worker<unknown, WakeJobResult>(WAKE_QUEUE, (job: Job) => this.runner.process(job), {
      connection: createRedis(this.config.redis.url, 'worker'),
      prefix: this.config.redis.prefix,
      concurrency: 8,
      // A killed worker stops renewing the job lock; after the stalled check
      // the job is re-delivered and the re-run adopts what the first placed.
      lockDuration: lockMs,
      stalledInterval: lockMs,
      maxStalledCount: 3,
      autorun: true,
    });
    this.worker.on('failed', (job, error) =>
      this.logger.warn(
        { jobId: job?.id, err: error.message },
        `wake job ${job?.id ?? '?'} failed: ${error.message}`,
      ),
    );
    this.worker.on('error', (error) => this.logger.error({ err: error.message }, 'wake worker error'));
    this.logger.info({ queue: WAKE_QUEUE, prefix: this.config.redis.prefix }, 'waker consuming wake jobs');
  }

  async onApplicationShutdown(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const closed = worker.close();
    const graceful = await Promise.race([
      closed.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), SHUTDOWN_GRACE_MS).unref()),
    ]);
    if (!graceful) {
      this.logger.warn('a wake is still running at shutdown; handing its job back for re-delivery');
      await worker.close(true);
    }
  }
}
