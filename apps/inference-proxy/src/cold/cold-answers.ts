import type { IdlePhase } from '@podwarden/policies';
import type { ProxyError } from '../openai-error';

export interface ShedContext {
  readonly pod: string;
  readonly phase: IdlePhase;
  readonly attemptId: string | null;
  readonly retryAfterSeconds: number;
  readonly expectedReadyAt: number | null;
  readonly why: 'hold-disabled' | 'hold-full' | 'hold-timeout';
}

const WHY_TEXT: Readonly<Record<ShedContext['why'], string>> = {
  'hold-disabled': 'this proxy does not hold requests for it',
  'hold-full': 'too many requests are already held for it',
  'hold-timeout': 'it did not become ready while the request was held',
};

/** 503 with Retry-After and a body naming the phase: a batch client backs off and comes back. */
export function shedError(context: ShedContext): ProxyError {
  return {
    status: 503,
    type: 'pod_not_ready',
    code: 'pod_not_ready',
    message: `pod ${context.pod} is waking (${context.phase.toLowerCase()}); ${WHY_TEXT[context.why]}. Retry in ${context.retryAfterSeconds} s.`,
    headers: { 'Retry-After': String(context.retryAfterSeconds) },
    extra: {
      pod: context.pod,
      phase: context.phase,
      reason: context.why,
      attemptId: context.attemptId,
      expectedReadyAt:
        context.expectedReadyAt === null ? null : new Date(context.expectedReadyAt).toISOString(),
      retryAfterSeconds: context.retryAfterSeconds,
    },
  };
}

/** A wake that failed or was refused (a daily budget, a price cap): its reason, as the client's error. */
export function wakeFailedError(
  pod: string,
  attemptId: string,
  refused: boolean,
  message: string,
): ProxyError {
  return {
    status: refused ? 409 : 503,
    type: refused ? 'wake_refused' : 'wake_failed',
    code: refused ? 'wake_refused' : 'wake_failed',
    message: `pod ${pod} could not be woken: ${message}`,
    extra: { pod, attemptId, outcome: 'Failed', reason: message },
  };
}
