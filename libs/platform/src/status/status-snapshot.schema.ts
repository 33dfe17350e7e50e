import { z } from 'zod';
import type { PodObservation } from '@podwarden/policies';
import type { StatusSnapshot } from './status-snapshot-store';
import type { VolumeReading } from './volume-reading';

/**
 * Custom on purpose, in part: a found pod's observation is kept as written (it was shaped from RunPod's
 * answer by the runpod-client schemas before it was stored), only its envelope is checked here.
 */
const observation = z.looseObject({}).transform((value) => value as unknown as PodObservation);

const volumeSchema: z.ZodType<VolumeReading> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('unconfigured') }),
  z.object({ kind: z.literal('unreadable') }),
  z.object({ kind: z.literal('not-found') }),
  z.object({ kind: z.literal('found'), pods: z.array(z.object({ podId: z.string(), observation })) }),
]);

/** The stored snapshot; an unreadable one is none, so the next read comes from RunPod itself. */
export const statusSnapshotSchema: z.ZodType<StatusSnapshot> = z.object({
  volume: volumeSchema,
  observedAt: z.number(),
});
