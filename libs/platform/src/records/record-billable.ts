import type { AppLogger } from '../logging/logger';
import type { ActionLog } from './action-log';
import type { ActionRecord } from './action-record';

export interface RecordBillableOptions extends ActionRecord {
  readonly logger: AppLogger;
  readonly actions: Pick<ActionLog, 'record'>;
  /** The log line, in words ("created pod p1 on NVIDIA L40S at 0.86 USD/h"). */
  readonly message: string;
  /** Accepted, but not what was asked for (a create answered without a pod id): logged at Warning. */
  readonly doubtful?: boolean;
}

/**
 * The one way a billable call RunPod answered is accounted for, accepted or
 * refused: a log line (Information when accepted, Warning when refused) with
 * the pod, GPU, price, HTTP status and trigger, then a durable action-log
 * entry. Nothing passed here carries the API key, so neither can leak it.
 */
export async function recordBillable(options: RecordBillableOptions): Promise<void> {
  const { logger, actions, message, doubtful = false, ...entry } = options;
  logger[entry.ok && !doubtful ? 'info' : 'warn'](
    {
      pod: entry.podName,
      podId: entry.podId,
      gpuId: entry.gpuId,
      pricePerHour: entry.pricePerHour,
      httpStatus: entry.httpStatus,
      trigger: entry.trigger,
      detail: entry.detail,
      billable: entry.action,
    },
    message,
  );
  await actions.record(entry);
}
