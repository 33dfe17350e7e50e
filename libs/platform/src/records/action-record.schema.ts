import { z } from 'zod';
import { ACTION_TRIGGERS, type ActionRecord } from './action-record';

/**
 * A stored action-log row. What the audit and the runs are built from (the call, its pod, its answer,
 * its trigger and time) has no fallback: a row of another shape is skipped, never bent into a call.
 * The GPU, price and detail only describe the row, so a wrong type reads as absent.
 */
export const actionRecordSchema: z.ZodType<ActionRecord> = z.object({
  at: z.string(),
  podName: z.string(),
  action: z.enum(['Start', 'Create', 'Terminate', 'Stop', 'KeepAlive']),
  podId: z.string().nullable(),
  gpuId: z.string().nullable().catch(null),
  pricePerHour: z.number().nullable().catch(null),
  httpStatus: z.number(),
  ok: z.boolean(),
  trigger: z.enum(ACTION_TRIGGERS),
  detail: z.string().nullable().catch(null),
});
