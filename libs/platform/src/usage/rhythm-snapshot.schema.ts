import { z } from 'zod';
import type { IdleWindow, PodRhythm, PrewakeSlot } from '@podwarden/policies';
import type { PrewakeRun, RhythmSnapshot } from './rhythm-store';

const idleWindowSchema: z.ZodType<IdleWindow> = z.object({
  minutes: z.number(),
  policy: z.enum(['fixed', 'adaptive']),
  basis: z.string(),
});

const prewakeSlotSchema: z.ZodType<PrewakeSlot> = z.object({
  dayClass: z.enum(['weekday', 'weekend']),
  wakeMinute: z.number(),
  untilMinute: z.number(),
  hitRate: z.number(),
  gainUsd: z.number(),
});

const podRhythmSchema: z.ZodType<PodRhythm> = z.object({
  window: idleWindowSchema,
  prewakes: z.array(prewakeSlotSchema),
  bootMinutes: z.number().nullable(),
});

/**
 * The learned rhythm as the store writes it. No fallbacks: an unreadable snapshot is none (the idle
 * monitor learns it again, GET shows none) rather than a window or a pre-wake nobody learned.
 */
export const rhythmSnapshotSchema: z.ZodType<RhythmSnapshot> = z.object({
  learnedAt: z.number(),
  uses: z.number(),
  rhythm: podRhythmSchema,
  inForce: idleWindowSchema,
  nextPrewakeAt: z.number().nullable(),
});

/** A pre-wake run as written; an unreadable one is none: the pod keeps its usual idle window, not a longer one. */
export const prewakeRunSchema: z.ZodType<PrewakeRun> = z.object({
  at: z.number(),
  slot: prewakeSlotSchema,
  attemptId: z.string().nullable(),
  hit: z.boolean(),
});
