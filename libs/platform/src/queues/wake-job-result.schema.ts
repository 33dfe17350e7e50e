import { z } from 'zod';
import { wakeReportShape } from '../wake/wake-report.schema';
import type { WakeJobResult } from './wake-job';

/** A published wake result as the gate stores it; unreadable ones are not published results at all. */
export const wakeJobResultSchema: z.ZodType<WakeJobResult> = z.object({
  ...wakeReportShape,
  name: z.string(),
  attemptId: z.string(),
  proxyUrl: z.string().nullable(),
  joined: z.boolean(),
});
