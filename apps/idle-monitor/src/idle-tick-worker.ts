import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Queue, Worker, type Job } from 'bullmq';
import type Redis from 'ioredis';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  IDLE_TICK_JOB,
  IDLE_TICK_QUEUE,
  IDLE_TICK_SCHEDULER_ID,
  IdleStateStore,
  KeepAliveStore,
  LOGGER,
  RUNPOD_CLIENT,
  StopService,
  createRedis,
  type AppLogger,
} from '@podwarden/platform';
import type { RunPodClient } from '@podwarden/runpod-client';
import { IdleTick } from './idle/idle-tick.service';

/**
 * Schedules and consumes the idle ticks. Every replica upserts the same
 * scheduler at start-up (idempotent: one tick per interval however many run,
 * and a changed CHECK_SECONDS replaces the interval); each tick is one job
 * taken by one worker.
 */
@Injectable()
export class IdleTickWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private queue: Queue | null = null;
  private worker: Worker | null = null;
  private readonly connections: Redis[] = [];
  private readonly tick: IdleTick;

  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    @Inject(RUNPOD_CLIENT) client: RunPodClient,
    store: IdleStateStore,
    stops: StopService,
    keepAlives: KeepAliveStore,
  ) {
    this.tick = new IdleTick({
      config,
      client,
      store,
      stops,
      keepAlives,
      logger,
      now: () => Date.now(),
      concurrency: 4,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    const { config } = this;
    const producer = createRedis(config.redis.url, 'request');
    const consumer = createRedis(config.redis.url, 'worker');
    this.connections.push(producer, consumer);
    this.queue = new Queue(IDLE_TICK_QUEUE, { connection: producer, prefix: config.redis.prefix });
    await this.queue.upsertJobScheduler(
      IDLE_TICK_SCHEDULER_ID,
      { every: config.checkSeconds * 1000 },
      {
        name: IDLE_TICK_JOB,
        data: {},
        opts: { removeOnComplete: { count: 200 }, removeOnFail: { count: 200 } },
      },
    );
    this.worker = new Worker(IDLE_TICK_QUEUE, (job: Job) => this.process(job), {
      connection: consumer,
      prefix: config.redis.prefix,
      concurrency: 1,
      lockDuration: Math.max(30_000, config.checkSeconds * 2000),
      maxStalledCount: 1,
    });
    this.worker.on('error', (error) => this.logger.error({ err: error.message }, 'idle tick worker error'));
    this.worker.on('failed', (job, error) =>
      this.logger.warn({ jobId: job?.id, err: error.message }, 'idle tick failed'),
    );
    this.logger.info(
      { checkSeconds: config.checkSeconds, pods: config.pods.map((p) => p.name), dryRun: config.idleDryRun },
      `idle monitor ticking every ${config.checkSeconds}s`,
    );
    if (config.idleDryRun)
      this.logger.warn('IDLE_DRY_RUN=true: the monitor logs "would stop" and stops nothing');
  }

  private async process(job: Job): Promise<{ pods: Record<string, string> }> {
    const outcomes = await this.tick.run(String(job.id), scheduledAtOf(job));
    const pods: Record<string, string> = {};
    for (const [name, outcome] of outcomes) {
      pods[name] =
        outcome.kind === 'skipped'
          ? `skipped:${outcome.why}`
          : `${outcome.record.state.phase}/${outcome.record.state.idleStreak}${outcome.stop ? `/stop:${outcome.stop}` : ''}`;
    }
    return { pods };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close().catch(() => undefined);
    await this.queue?.close().catch(() => undefined);
    for (const connection of this.connections) await connection.quit().catch(() => connection.disconnect());
  }
}

/** Scheduler job ids end in the tick's scheduled time (repeat:<scheduler>:<millis>); else the creation time. */
export function scheduledAtOf(job: Pick<Job, 'id' | 'timestamp'>): number {
  const match = /:(\d{10,})$/.exec(String(job.id ?? ''));
  return match ? Number(match[1]) : job.timestamp;
}
