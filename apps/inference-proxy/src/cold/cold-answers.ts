import type { IdlePhase } from '@podwarden/policies';
import type { ProxyError } from '../openai-error';
import { FALLBACK_RETRY_AFTER_SECONDS } from './shed-estimates';

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

/** Why a request that does not wake the pod could not be answered while it is cold. */
export type NotWokenWhy = 'models-unknown' | 'not-model-work';

const NOT_WOKEN_TEXT: Readonly<Record<NotWokenWhy, string>> = {
  'models-unknown': 'its model list is not known yet (it has served none through this proxy)',
  'not-model-work': 'this request does not wake it',
};

/**
 * 503 with Retry-After for a read of a cold pod: nothing is woken, so there is
 * no boot to estimate; the body names the phase and says what would wake it.
 */
export function notWokenError(pod: string, phase: IdlePhase, why: NotWokenWhy): ProxyError {
  const seconds = FALLBACK_RETRY_AFTER_SECONDS;
  const state = phase === 'Booting' ? 'is still booting' : 'is not running';
  return {
    status: 503,
    type: 'pod_not_ready',
    code: 'pod_not_ready',
    message: `pod ${pod} ${state}; ${NOT_WOKEN_TEXT[why]}. Only a request to the model (such as POST /v1/chat/completions) wakes it. Retry in ${seconds} s.`,
    headers: { 'Retry-After': String(seconds) },
    extra: {
      pod,
      phase,
      reason: why,
      attemptId: null,
      expectedReadyAt: null,
      retryAfterSeconds: seconds,
    },
  };
}

/** Redis or RunPod could not be read: nothing was decided, so a retry soon is worth it. */
export function unavailableError(pod: string, code: string, message: string): ProxyError {
  return {
    status: 503,
    type: 'service_unavailable',
    code,
    message,
    headers: { 'Retry-After': String(FALLBACK_RETRY_AFTER_SECONDS) },
    extra: { pod },
  };
}
