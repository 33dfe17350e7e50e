import { confirmedAtOnce } from '@podwarden/policies';
import type { VolumeStopResult } from '@podwarden/platform';
import { problem, type ProblemException } from '../http/problem';
import type { StopResponseDto } from './stop-response.dto';

export type StopAnswer =
  | { readonly kind: 'answer'; readonly body: StopResponseDto }
  | { readonly kind: 'problem'; readonly error: ProblemException };

/** A refused stop is still 200 (see the per-pod ok); only "nothing could be tried" is an error. */
export function stopAnswer(name: string, result: VolumeStopResult): StopAnswer {
  switch (result.kind) {
    case 'unconfigured':
      return {
        kind: 'problem',
        error: problem(
          503,
          'unconfigured',
          'Pod not configured',
          'RUNPOD_API_KEY is unset or the pod has no volume id; nothing was stopped',
          { name },
        ),
      };
    case 'unreadable':
      return {
        kind: 'problem',
        error: problem(
          503,
          'lookup-unreadable',
          'Volume lookup unreadable',
          `the pod list could not be read (${result.reason}); nothing was stopped`,
          { name },
        ),
      };
    case 'no-pod':
      return {
        kind: 'problem',
        error: problem(
          404,
          'no-pod-on-volume',
          'No pod on the volume',
          'no pod is attached to the volume; nothing to stop',
          {
            name,
          },
        ),
      };
    case 'stopped':
      return {
        kind: 'answer',
        body: {
          name,
          ok: result.ok,
          pods: result.pods.map((pod) => ({ podId: pod.podId, ok: pod.ok })),
          stopConfirmed: confirmedAtOnce(result.pods),
        },
      };
  }
}
