import { z } from 'zod';
import type { Boot, StopMark } from '@podwarden/policies';

/**
 * A boot and a stop as the usage store writes them (sorted-set members). Their times have no fallback:
 * a member without them is skipped, as the rhythm learned from the rest is still the pod's. The GPU and
 * price only inform; a wrong type reads as absent, and only `true` marks a pre-wake.
 */
export const bootSchema: z.ZodType<Boot> = z.object({
  wakeAt: z.number(),
  readyAt: z.number(),
  gpuId: z.string().nullable().catch(null),
  pricePerHour: z.number().nullable().catch(null),
  prewake: z.boolean().catch(false),
});

export const stopMarkSchema: z.ZodType<StopMark> = z.object({
  at: z.number(),
  trigger: z.string(),
});
