import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import type { Job } from 'bullmq';
import { BILLING_RECONCILE_QUEUE, LOGGER, errorMessage, type AppLogger } from '@podwarden/platform';
import { BillingReconciler, type ReconcileSummary } from './billing-reconciler';

/**
 * Consumes the billing reconcile: one job per period, taken by one idle
 * monitor of any replica. A reconcile is safe to run twice (it overwrites
 * the same figures), so a stalled one re-delivered does no harm.
 */
@Processor(BILLING_RECONCILE_QUEUE, { concurrency: 1 })
export class BillingReconcileProcessor extends WorkerHost {
  constructor(
    private readonly reconciler: BillingReconciler,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {
    super();
  }

  process(_job: Job, _token?: string, signal?: AbortSignal): Promise<ReconcileSummary> {
    return this.reconciler.run(signal);
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined, error: Error): void {
    this.logger.warn({ jobId: job?.id, err: error.message }, 'billing reconcile failed');
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.error({ err: errorMessage(error) }, 'billing reconcile worker error');
  }
}
