/** One billable write issued to RunPod, accepted or refused ("what did we ask RunPod to bill us for?"). */
export type BillableAction = 'Start' | 'Create' | 'Terminate' | 'Stop';
/**
 * Not a RunPod call but a decision that keeps a pod billing: an operator's
 * keep-alive set or cleared (httpStatus 0, detail says until when and who asked).
 */
export type RecordedAction = BillableAction | 'KeepAlive';
/** Every trigger a row can name; the stored-record schemas check against this list. */
export const ACTION_TRIGGERS = [
  'wake',
  'prewake',
  'idle',
  'boot-grace',
  'runtime-cap',
  'manual',
  'orphan',
  'error',
  'restart-loop',
] as const;
export type ActionTrigger = (typeof ACTION_TRIGGERS)[number];

export interface ActionRecord {
  readonly at: string;
  readonly podName: string;
  readonly action: RecordedAction;
  readonly podId: string | null;
  readonly gpuId: string | null;
  readonly pricePerHour: number | null;
  readonly httpStatus: number;
  readonly ok: boolean;
  readonly trigger: ActionTrigger;
  readonly detail: string | null;
}

/**
 * How a reconciled row of a call interrupted before its answer begins: the
 * caller died with the call maybe sent, maybe not, so the row stands for
 * "0 or 1 write" (the chaos audit matches it against at most one write).
 */
export const INTERRUPTED_DETAIL = 'reconciled: interrupted before its answer';
