import { readySampleOf, type ReadySample } from '@podwarden/policies';
import type { WakeAttemptView } from '@podwarden/platform';

/** The time-to-ready of the wake that brought the pod up, from that wake's record; null when none did. */
export function readySampleOfWake(
  attempt: WakeAttemptView | undefined,
  ready: { readonly podId: string | null; readonly at: number; readonly gpuId: string | null },
): ReadySample | null {
  return readySampleOf(
    attempt === undefined
      ? null
      : {
          attemptId: attempt.attemptId,
          requestedAt: Date.parse(attempt.requestedAt),
          wakeOutcome: attempt.wakeOutcome,
          podId: attempt.podId,
          gpuId: attempt.gpuId,
        },
    ready,
  );
}
