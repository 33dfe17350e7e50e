import type { ListedPod } from '@podwarden/policies';
import type { ActionRecord } from './action-record';
import type { BillableIntent } from './billable-intents';

export type UnansweredIntentRow = Pick<
  ActionRecord,
  'action' | 'podId' | 'gpuId' | 'pricePerHour' | 'httpStatus' | 'ok'
>;

/**
 * The row of an intent whose caller died before RunPod answered: its call as written ahead, the answer
 * unknown, which the log spells HTTP 0 and not ok (the waker's and the idle monitor's reconciles alike).
 */
export function unansweredIntentRow(intent: BillableIntent): UnansweredIntentRow {
  const { action, podId, gpuId, pricePerHour } = intent;
  return { action, podId, gpuId, pricePerHour, httpStatus: 0, ok: false };
}

/** What a fresh list says of the pod an unanswered call went to: the evidence of whether it took. */
export function listedStatus(pod: ListedPod | undefined): string {
  return pod === undefined ? 'not listed' : (pod.status ?? 'listed without a status');
}
