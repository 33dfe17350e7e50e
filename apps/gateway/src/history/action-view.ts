import type { ActionRecord } from '@podwarden/platform';
import type { ActionDto } from './history.dto';

/** A recorded billable action as /history serves it: the record without its pod name. */
export function actionView(record: ActionRecord): ActionDto {
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
