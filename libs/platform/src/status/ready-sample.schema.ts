import { z } from 'zod';
import type { ReadySample } from '@podwarden/policies';

/** A time-to-ready sample as written; one without its attempt or duration is skipped (the estimate uses the rest). */
export const readySampleSchema: z.ZodType<ReadySample> = z.object({
  attemptId: z.string(),
  gpuId: z.string().nullable().catch(null),
  readyAfterMs: z.number(),
});
