import { randomUUID } from 'node:crypto';
import type { ListedPod } from '@podwarden/policies';
import type { AppLogger } from '../logging/logger';
import type { ActionTrigger } from '../records/action-record';
import type { BillableIntent, BillableIntents } from '../records/billable-intents';
import { errorMessage } from '../util/error-message';

/**
 * The stop path's side of the write-ahead billable log: a Stop intent is
 * written before the call, so a caller that dies before RunPod answers still
 * leaves the stop for the idle monitor to record. The answer claims it back;
 * only a caller that wins the claim records the outcome.
 */
export class StopIntentLog {
  constructor(
    private readonly intents: Pick<BillableIntents, 'begin' | 'claim'> | undefined,
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

  /** Whether this caller records the outcome: false only when the reconcile already did. */
  async claim(intent: BillableIntent | null): Promise<boolean> {
    if (intent === null || this.intents === undefined) return true;
    try {
      if (await this.intents.claim(intent.podName, intent.id)) return true;
      this.logger.warn(
        { pod: intent.podName, podId: intent.podId },
        'stop answered after its intent was reconciled; the reconciled row stands',
      );
      return false;
    } catch (error) {
      // Unknown whether the claim took: recording may double the row, which beats losing it.
      this.logger.warn(
        { pod: intent.podName, podId: intent.podId, err: errorMessage(error) },
        'stop intent not settled (Redis); recording the answer anyway',
      );
      return true;
    }
  }
}
