import { z } from 'zod';
import type { RunReadyEdge } from '@podwarden/policies';

/** A stored ready edge: its time and pod decide a run's readyAt; the GPU and price only inform. */
export const runReadyEdgeSchema: z.ZodType<RunReadyEdge> = z.object({
  at: z.string(),
  podId: z.string().nullable(),
  gpuId: z.string().nullable().catch(null),
  pricePerHour: z.number().nullable().catch(null),
});
