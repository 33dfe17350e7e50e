import { z } from 'zod';
import { ACTION_TRIGGERS } from './action-record';
import type { BillableIntent } from './billable-intents';

/**
 * A write-ahead intent as `begin` writes it. What reconciles it (its call, the pod, the request name,
 * the fence and the ambiguous answer) has no fallback: an intent without them cannot be reconciled and
 * is not shown as one. The GPU, price and trigger only describe the row, so a wrong type reads as absent.
 */
export const billableIntentSchema: z.ZodType<BillableIntent> = z.object({
  id: z.string(),
  at: z.string(),
  podName: z.string(),
  action: z.enum(['Start', 'Create', 'Terminate', 'Stop']),
  podId: z.string().nullable(),
  gpuId: z.string().nullable().catch(null),
  pricePerHour: z.number().nullable().catch(null),
  requestName: z.string().nullable(),
  attemptId: z.string(),
  fenceToken: z.number().nullable(),
  answeredStatus: z.number().nullable(),
  trigger: z.enum(ACTION_TRIGGERS).optional().catch(undefined),
});
