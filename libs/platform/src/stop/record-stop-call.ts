import type { ListedPod } from '@podwarden/policies';
import type { PodActionResult } from '@podwarden/runpod-client';
import type { AppLogger } from '../logging/logger';
import type { ActionLog } from '../records/action-log';
import type { ActionTrigger } from '../records/action-record';
import { recordBillable } from '../records/record-billable';
import type { BillableIntent } from '../records/billable-intents';
import type { PodEventSink } from '../events/pod-event-publisher';
import type { PodStopOutcome } from './stop-service';

export interface StopCallRecording {
  readonly actions: Pick<ActionLog, 'record'>;
  readonly logger: AppLogger;
  readonly now: () => Date;
  readonly events?: PodEventSink;
}

/** The stop or terminate call sent: to which pod (its list entry, if listed) and why. */
export interface StopCallTarget {
  readonly action: 'Stop' | 'Terminate';
  readonly podName: string;
  readonly podId: string;
  readonly entry: ListedPod | null;
  readonly trigger: ActionTrigger;
}

/** The row's detail and the log line's words for the answer. */
export interface StopCallWords {
  readonly detail: string | null;
  readonly message: string;
}

/**
 * Accounts for a stop-path call alike whether it stopped or terminated: the row claiming its intent, then
 * the `stop` event (a terminate says so in `action`), then the outcome its caller answers.
 */
export async function recordStopCall(
  deps: StopCallRecording,
  call: StopCallTarget,
  result: PodActionResult,
  intent: BillableIntent | null,
  words: StopCallWords,
): Promise<PodStopOutcome> {
  const { podName, podId, entry, trigger } = call;
  const gpuId = entry?.gpuId ?? null;
  const pricePerHour = entry?.costPerHr ?? null;
  await recordBillable({
    logger: deps.logger,
    actions: deps.actions,
    at: deps.now().toISOString(),
    podName,
    action: call.action,
    podId,
    gpuId,
    pricePerHour,
    httpStatus: result.httpStatus,
    ok: result.ok,
    trigger,
    detail: words.detail,
    message: words.message,
    closing: intent === null ? undefined : { mode: 'claim', intent },
  });
  await deps.events?.publish(podName, 'stop', {
    podId,
    trigger,
    ...(call.action === 'Terminate' ? { action: 'terminate' } : {}),
    ok: result.ok,
    httpStatus: result.httpStatus,
    gpuId,
    pricePerHour,
  });
  return { podId, ok: result.ok, httpStatus: result.httpStatus, called: true };
}
