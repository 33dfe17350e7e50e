import type { AppLogger } from '../logging/logger';
import type { ActionLog } from './action-log';
import type { ActionRecord } from './action-record';
import type { IntentClosing } from './billable-intents';
import type { AppendOutcome } from './durable-stream';

export interface RecordBillableOptions extends ActionRecord {
  readonly logger: AppLogger;
  readonly actions: Pick<ActionLog, 'record'>;
  /** The log line, in words ("created pod p1 on NVIDIA L40S at 0.86 USD/h"). */
  readonly message: string;
  /** Accepted, but not what was asked for (a create answered without a pod id): logged at Warning. */
  readonly doubtful?: boolean;
  /** The write-ahead intent this outcome closes (or keeps open in doubt), in the same atomic write. */
  readonly closing?: IntentClosing;
}

/**
 * The one way a billable call RunPod answered, accepted or refused, is accounted for: the action-log
 * entry that closes its intent, then a log line (see docs/architecture.md, "One wake, end to end").
 * Nothing passed here carries the API key, so neither can leak it.
 */
export async function recordBillable(options: RecordBillableOptions): Promise<AppendOutcome> {
  const { logger, actions, message, doubtful = false, closing, ...entry } = options;
  const outcome = await actions.record(entry, closing);
  const elsewhere = outcome === 'claimed-elsewhere';
  logger[entry.ok && !doubtful && !elsewhere ? 'info' : 'warn'](
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
    elsewhere ? `${message} (not recorded: its intent was already reconciled; that row stands)` : message,
  );
  return outcome;
}
