import { z } from 'zod';
import type { PendingStop } from '@podwarden/policies';

/**
 * A followed stop as the store writes it. The pod, trigger and counts have no fallback (an entry without
 * them is unreadable and dropped: the tick's own idle decision still stops a pod that is up); a
 * confirmation time that is not a number reads as not confirmed, so the stop keeps being followed.
 */
export const pendingStopSchema: z.ZodType<PendingStop> = z.object({
  podId: z.string(),
  trigger: z.string(),
  stoppedAt: z.number(),
  ticksWaited: z.number(),
  restops: z.number(),
  confirmedAt: z.number().nullable().catch(null),
});
