import { z } from 'zod';
import type { WakeProgress } from './wake-progress';

/** The in-flight wake's progress as stored; an unreadable one is shown as none (GET reads RunPod's state). */
export const wakeProgressSchema: z.ZodType<WakeProgress> = z.object({
  attemptId: z.string(),
  phase: z.string(),
  message: z.string(),
  updatedAt: z.string(),
});
