import { z } from 'zod';
import type { StoredDiagnosis } from './diagnosis-store';

/** A diagnosis as the store writes it. No fallbacks: an unreadable one makes the read throw (GET answers 503). */
export const storedDiagnosisSchema: z.ZodType<StoredDiagnosis> = z.object({
  podId: z.string(),
  at: z.string(),
  kind: z.enum(['cold-pull', 'restart-loop', 'control-plane-lag', 'application-failure', 'unknown']),
  evidence: z.array(z.string()),
  summary: z.string(),
});
