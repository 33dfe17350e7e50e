import { z } from 'zod';
import { wakeReportShape } from '../wake/wake-report.schema';
import type { WakeRecord } from './wake-record';

const requested = {
  podName: z.string(),
  attemptId: z.string(),
  requestedAt: z.string(),
  requestedBy: z.string().nullable().catch(null),
};

/**
 * A stored wake-history row. What /history and lastWake are built from (the attempt, its times, its
 * outcome and reason) has no fallback: a row of another shape is skipped, so it can never show a wake
 * that did not happen. The GPU, price and provider diagnostics only inform.
 */
export const wakeRecordSchema: z.ZodType<WakeRecord> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('Requested'), ...requested }),
  z.object({
    type: z.literal('Completed'),
    ...requested,
    completedAt: z.string(),
    outcome: z.enum(['Succeeded', 'Refused', 'TimedOut', 'Failed']),
    wakeOutcome: z.string(),
    reason: z.string(),
    podId: wakeReportShape.podId,
    gpuId: wakeReportShape.gpuId,
    pricePerHour: wakeReportShape.pricePerHour,
    candidatesConsidered: z.number().catch(0),
    lastProviderStatus: z.number().nullable().catch(null),
  }),
]);
