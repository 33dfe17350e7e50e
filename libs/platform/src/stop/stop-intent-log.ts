import { randomUUID } from 'node:crypto';
import type { ListedPod } from '@podwarden/policies';
import type { AppLogger } from '../logging/logger';
import type { ActionTrigger } from '../records/action-record';
import type { BillableIntent, BillableIntents } from '../records/billable-intents';
import { errorMessage } from '../util/error-message';

/**
 * The stop path's side of the write-ahead billable log: a Stop intent is
 * written before the call, so a caller that dies before RunPod answers still
 * leaves the stop for the idle monitor to record. The answer's record claims
 * it back in the same write (ActionLog.record): of the answer and the
 * reconcile, only the first is recorded.
 */
export class StopIntentLog {
  constructor(
    private readonly intents: Pick<BillableIntents, 'begin'> | undefined,
    private readonly logger: AppLogger,
    private readonly now: () => Date,
  ) {}

  /**
   * Null when there is no store or Redis refused the write: unlike a start or
   * a create, a stop still goes out (it ends billing; refusing it costs money).
   */
  async open(
    podName: string,
    podId: string,
    entry: ListedPod | null,
    trigger: ActionTrigger,
  ): Promise<BillableIntent | null> {
    if (this.intents === undefined) return null;
    const intent: BillableIntent = {
      id: randomUUID(),
      at: this.now().toISOString(),
      podName,
      action: 'Stop',
      podId,
      gpuId: entry?.gpuId ?? null,
      pricePerHour: entry?.costPerHr ?? null,
      requestName: null,
      attemptId: `stop:${trigger}`,
      fenceToken: null,
      answeredStatus: null,
      trigger,
    };
    try {
      await this.intents.begin(intent);
      return intent;
    } catch (error) {
      this.logger.warn(
        { pod: podName, podId, err: errorMessage(error) },
        'stop intent not written (Redis); stopping anyway, a crash before the answer would go unrecorded',
      );
      return null;
    }
  }
}
