import type { AppLogger } from '../logging/logger';
import { errorMessage } from './error-message';

/** How work that failed (or timed out) is told, and what is answered in its place. */
export interface WorkFailure<F> {
  readonly logger: AppLogger;
  /** The Warning line's fields beside `err` (the pod, the job). */
  readonly fields: Record<string, unknown>;
  readonly message: string;
  /** A default the caller can do without the work (null, a fallback), or a thrown problem. */
  readonly fallback: (error: unknown) => F;
}

/**
 * The work's answer, or on its failure a Warning line with the error and the fallback's answer: the one
 * shape of a Redis read or write a caller survives (bound it with withinTimeout inside `work`).
 */
export async function orWarn<T, F>(work: () => Promise<T>, failure: WorkFailure<F>): Promise<T | F> {
  try {
    return await work();
  } catch (error) {
    failure.logger.warn({ ...failure.fields, err: errorMessage(error) }, failure.message);
    return failure.fallback(error);
  }
}
