import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  BILLING_RECONCILE_JOB,
  BILLING_RECONCILE_QUEUE,
  BILLING_RECONCILE_SCHEDULER_ID,
  CONFIG,
  LOGGER,
  jobRetention,
  type AppLogger,
} from '@podwarden/platform';

/**
 * Like the idle ticks: every idle monitor upserts the same job scheduler at
 * start-up, so there is one reconcile per BILLING_RECONCILE_SECONDS however
 * many replicas run.
 */
@Injectable()
export class BillingReconcileSchedulerService implements OnApplicationBootstrap {
  constructor(
    @InjectQueue(BILLING_RECONCILE_QUEUE) private readonly queue: Queue,
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { reconcileSeconds } = this.config.billing;
    await this.queue.upsertJobScheduler(
      BILLING_RECONCILE_SCHEDULER_ID,
      { every: reconcileSeconds * 1000 },
      { name: BILLING_RECONCILE_JOB, data: {}, opts: jobRetention(this.config.tuning) },
    );
    this.logger.info({ reconcileSeconds }, `reconciling RunPod's billing every ${reconcileSeconds}s`);
  }
}
