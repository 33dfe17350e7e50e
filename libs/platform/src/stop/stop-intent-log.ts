import { randomUUID } from 'node:crypto';
import type { ListedPod } from '@podwarden/policies';
import type { AppLogger } from '../logging/logger';
import type { ActionTrigger, BillableAction } from '../records/action-record';
import type { BillableIntent, BillableIntents } from '../records/billable-intents';
import { errorMessage } from '../util/error-message';

/**
 * The stop path's side of the write-ahead billable log: the Stop intent is written before the call, so a
 * caller that dies before RunPod answers leaves the stop for the idle monitor to record. The answer's
 * record claims it in the same write (ActionLog.record): only the first of answer and reconcile counts.
 */
export class StopIntentLog {
  constructor(
    private readonly intents: Pick<BillableIntents, 'begin'> | undefined,
    private readonly logger: AppLogger,
    private readonly now: () => Date,
  ) {}

  /**
   * Null when there is no store or Redis refused the write: unlike a start or
   * a create, a stop (or the ERROR guard's terminate) still goes out: it ends
   * billing, and holding it back costs money.
   */
  async open(
    podName: string,
    podId: string,
    entry: ListedPod | null,
    trigger: ActionTrigger,
    action: Extract<BillableAction, 'Stop' | 'Terminate'> = 'Stop',
  ): Promise<BillableIntent | null> {
    if (this.intents === undefined) return null;
    const intent = stopPathIntent(podName, podId, entry, trigger, action, this.now());
    try {
      await this.intents.begin(intent);
      return intent;
    } catch (error) {
      this.logger.warn(
        { pod: podName, podId, err: errorMessage(error) },
        `${action === 'Stop' ? 'stop intent not written (Redis); stopping' : 'terminate intent not written (Redis); terminating'} anyway, a crash before the answer would go unrecorded`,
      );
      return null;
    }
  }
}

/** A stop-path intent (Stop or Terminate): no request name or fence, the attempt named by its trigger. */
export function stopPathIntent(
  podName: string,
  podId: string,
  entry: ListedPod | null,
  trigger: ActionTrigger,
  action: Extract<BillableAction, 'Stop' | 'Terminate'>,
  at: Date,
): BillableIntent {
  return {
    id: randomUUID(),
    at: at.toISOString(),
    podName,
    action,
    podId,
    gpuId: entry?.gpuId ?? null,
    pricePerHour: entry?.costPerHr ?? null,
    requestName: null,
    attemptId: `stop:${trigger}`,
    fenceToken: null,
    answeredStatus: null,
    trigger,
  };
}
