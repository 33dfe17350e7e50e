import { z } from 'zod';
import type { WakeReport } from './wake-report';

/**
 * A stored wake report (the job's published result, the wake history). The outcome and what names the
 * pod have no fallback: a report whose outcome cannot be read must never pass for a wake that worked.
 * The GPU and price only inform, so a wrong type reads as absent.
 */
export const wakeReportShape = {
  outcome: z.enum(['AlreadyRunning', 'Started', 'Created', 'Waiting', 'Failed']),
  failureKind: z.enum(['refused', 'provider']).nullable(),
  podId: z.string().nullable(),
  gpuId: z.string().nullable().catch(null),
  pricePerHour: z.number().nullable().catch(null),
  message: z.string(),
};

export const wakeReportSchema: z.ZodType<WakeReport> = z.object(wakeReportShape);
