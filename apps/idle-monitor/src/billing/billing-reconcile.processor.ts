import { OnWorkerEvent, Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { BILLING_RECONCILE_QUEUE, TrackedWorkerHost, WorkerHostKit, errorMessage } from '@podwarden/platform';
import { BillingReconciler, type ReconcileSummary } from './billing-reconciler';

/**
 * One billing reconcile per period, on any replica. Running it twice only overwrites the same
 * figures, so a stalled job re-delivered does no harm; tracked, as the tick worker is, so that
 * shutdown without Redis closes it at once.
 */
@Processor(BILLING_RECONCILE_QUEUE, { concurrency: 1 })
export class BillingReconcileProcessor extends TrackedWorkerHost {
  constructor(
    private readonly reconciler: BillingReconciler,
    kit: WorkerHostKit,
  ) {
    super(kit, {
      what: 'billing reconcile',
      handBackMessage: 'billing reconcile still running at shutdown; handing it back',
      feedsReadiness: false,
    });
  }

  process(_job: Job, _token?: string, signal?: AbortSignal): Promise<ReconcileSummary> {
    return this.track(this.reconciler.run(signal));
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined, error: Error): void {
    this.kit.logger.warn({ jobId: job?.id, err: error.message }, 'billing reconcile failed');
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.kit.logger.error({ err: errorMessage(error) }, 'billing reconcile worker error');
  }
}
