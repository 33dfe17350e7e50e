import type { ActionRecord } from '../action-record';

/** An accepted create as the waker records it: the row the records specs write, retry and claim. */
export const CREATE_ROW: ActionRecord = {
  at: '2026-12-01T08:00:00.000Z',
  podName: 'qwen',
  action: 'Create',
  podId: 'pod-1',
  gpuId: 'NVIDIA L40S',
  pricePerHour: 0.86,
  httpStatus: 201,
  ok: true,
  trigger: 'wake',
  detail: null,
};
