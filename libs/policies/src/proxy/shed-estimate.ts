import { expectedReadyAt, type BootUnderWay, type ReadySample } from '../status/ready-estimate';
import { retryAfterSeconds } from './cold-request';

/** One wake attempt as the wake history shows it (epoch ms; the completion null while in flight). */
export interface ShedAttempt {
  readonly attemptId: string;
  readonly requestedAt: number;
  readonly wakeOutcome: string | null;
  readonly gpuId: string | null;
}

const BROUGHT_UP: ReadonlySet<string> = new Set(['Started', 'Created']);

/**
 * The boot a shed request waits on: its wake, in flight or ended by starting or creating the pod (the
 * request is cold, so not ready yet); a wake not yet in the history is queued and boots from now at the
 * earliest. Until it ends, the GPU is guessed as GET does; null if it ended otherwise.
 */
export function shedBoot(
  attempts: readonly ShedAttempt[],
  attemptId: string,
  now: number,
): BootUnderWay | null {
  const attempt = attempts.find((a) => a.attemptId === attemptId);
  if (attempt === undefined || attempt.wakeOutcome === null) {
    const lastGpu = attempts.find((a) => a.wakeOutcome !== null && a.gpuId !== null)?.gpuId ?? null;
    return { startedAt: attempt?.requestedAt ?? now, gpuId: lastGpu };
  }
  if (!BROUGHT_UP.has(attempt.wakeOutcome)) return null;
  return { startedAt: attempt.requestedAt, gpuId: attempt.gpuId };
}

export interface ShedEstimate {
  /** When the model should be ready (epoch ms), from past wakes; null without history. */
  readonly expectedReadyAt: number | null;
  /** Whole seconds: until expectedReadyAt (at least 1), else the fallback; capped. */
  readonly retryAfterSeconds: number;
}

/** Retry-After for a shed request: the boot's start plus the median time-to-ready of past wakes. */
export function shedEstimate(
  boot: BootUnderWay | null,
  samples: readonly ReadySample[],
  now: number,
  fallbackSeconds: number,
): ShedEstimate {
  const readyAt = expectedReadyAt(boot, samples);
  return { expectedReadyAt: readyAt, retryAfterSeconds: retryAfterSeconds(readyAt, now, fallbackSeconds) };
}
