import type { ActionRecord, WakeAttemptView } from '@podwarden/platform';

/** One billable action as /history serves it (CONTRACT.md "History actions[] item"). */
export interface ActionView {
  readonly at: string;
  readonly action: ActionRecord['action'];
  readonly podId: string | null;
  readonly gpuId: string | null;
  readonly pricePerHour: number | null;
  readonly httpStatus: number;
  readonly ok: boolean;
  readonly trigger: ActionRecord['trigger'];
  readonly detail: string | null;
}

export interface HistoryBody {
  readonly name: string;
  readonly actions: readonly ActionView[];
  readonly wakes: readonly WakeAttemptView[];
}

export function actionView(record: ActionRecord): ActionView {
  return {
    at: record.at,
    action: record.action,
    podId: record.podId,
    gpuId: record.gpuId,
    pricePerHour: record.pricePerHour,
    httpStatus: record.httpStatus,
    ok: record.ok,
    trigger: record.trigger,
    detail: record.detail,
  };
}
