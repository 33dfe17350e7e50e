import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  IDLE_TICK_JOB,
  IDLE_TICK_QUEUE,
  IDLE_TICK_SCHEDULER_ID,
  LOGGER,
  jobRetention,
  type AppLogger,
} from '@podwarden/platform';

/**
 * Every replica upserts the same job scheduler at start-up: idempotent, so
 * there is one tick per CHECK_SECONDS however many replicas run, and a
 * changed CHECK_SECONDS replaces the interval.
 */
@Injectable()
export class IdleTickSchedulerService implements OnApplicationBootstrap {
  constructor(
    @InjectQueue(IDLE_TICK_QUEUE) private readonly queue: Queue,
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { config } = this;
    await this.queue.upsertJobScheduler(
      IDLE_TICK_SCHEDULER_ID,
      { every: config.checkSeconds * 1000 },
      { name: IDLE_TICK_JOB, data: {}, opts: jobRetention(config.tuning) },
    );
    this.logger.info(
      { checkSeconds: config.checkSeconds, pods: config.pods.map((p) => p.name), dryRun: config.idleDryRun },
      `idle monitor ticking every ${config.checkSeconds}s`,
    );
    if (config.idleDryRun)
      this.logger.warn('IDLE_DRY_RUN=true: the monitor logs "would stop" and stops nothing');
  }
}
