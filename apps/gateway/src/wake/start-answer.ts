import { httpStatusForWake } from '@podwarden/policies';
import type { WakeJobResult } from '@podwarden/platform';
import { problemBody, type ProblemBody } from '../http/problem';
import type { StartResponseDto } from './start-response.dto';

export type StartAnswer =
  | { readonly kind: 'answer'; readonly status: 200 | 202; readonly body: StartResponseDto }
  | { readonly kind: 'problem'; readonly problem: ProblemBody };

/** Failed means nothing is in flight: a 409 whose detail says why (the waker names excluded GPUs there). */
function failedProblem(
  name: string,
  attemptId: string,
  detail: string,
  extra: Record<string, unknown> = {},
): StartAnswer {
  return {
    kind: 'problem',
    problem: problemBody(409, 'wake-failed', 'Wake failed', detail, {
      name,
      outcome: 'Failed',
      attemptId,
      ...extra,
    }),
  };
}

/** A finished wake's result; a joined wake carries the holder's attemptId, which is what we report. */
export function answerFromResult(name: string, result: WakeJobResult): StartAnswer {
  const status = httpStatusForWake(result.outcome);
  if (status === 409 || result.outcome === 'Failed') {
    return failedProblem(name, result.attemptId, result.message, { failureKind: result.failureKind });
  }
  return {
    kind: 'answer',
    status,
    body: {
      name,
      outcome: result.outcome,
      attemptId: result.attemptId,
      podId: result.podId,
      gpuId: result.gpuId,
      pricePerHour: result.pricePerHour,
      proxyUrl: result.proxyUrl,
      message: result.message,
    },
  };
}

/** The job itself failed (bad payload, a crash BullMQ recorded) and left no published result. */
export function answerFromJobFailure(name: string, attemptId: string, failedReason: string): StartAnswer {
  return failedProblem(name, attemptId, failedReason || 'the wake job failed without a reason');
}

/** Still running after the request's wait: 202, poll GET for progress; the wake carries on regardless. */
export function answerWhileInFlight(
  name: string,
  attemptId: string,
  progressMessage: string | null,
): StartAnswer {
  return {
    kind: 'answer',
    status: 202,
    body: {
      name,
      outcome: 'Waiting',
      attemptId,
      podId: null,
      gpuId: null,
      pricePerHour: null,
      proxyUrl: null,
      message: progressMessage ?? 'wake in flight',
    },
  };
}
