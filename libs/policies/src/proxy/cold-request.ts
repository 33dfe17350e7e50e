import type { WakeFailureKind, WakeOutcome } from '../wake/last-wake';

/**
 * What the proxy does with a request for a pod that is not ready: hold it
 * until the model answers (a chat UI wants to wait), or shed it at once with
 * 503 and Retry-After (a batch client wants to back off).
 */
export type ColdRequestDecision =
  | { readonly kind: 'hold'; readonly holdMs: number }
  | { readonly kind: 'shed'; readonly why: 'hold-disabled' | 'hold-full' };

export function decideColdRequest(
  holdSeconds: number,
  heldNow: number,
  maxHeld: number,
): ColdRequestDecision {
  if (holdSeconds <= 0) return { kind: 'shed', why: 'hold-disabled' };
  // Bounded: beyond the limit a request is shed at once rather than queued without end.
  if (heldNow >= maxHeld) return { kind: 'shed', why: 'hold-full' };
  return { kind: 'hold', holdMs: holdSeconds * 1000 };
}

/** A Retry-After is at least this: a client told 0 would retry in a tight loop. */
export const MIN_RETRY_AFTER_SECONDS = 1;
/** And at most this: an estimate far out is as good as "later", and a client should look again. */
export const MAX_RETRY_AFTER_SECONDS = 600;

/**
 * Whole seconds until the expected ready time, clamped; the fallback when no
 * estimate exists (no wake history, or nothing booting).
 */
export function retryAfterSeconds(
  expectedReadyAt: number | null,
  now: number,
  fallbackSeconds: number,
): number {
  const raw = expectedReadyAt === null ? fallbackSeconds : Math.ceil((expectedReadyAt - now) / 1000);
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(MIN_RETRY_AFTER_SECONDS, raw));
}

/** How a finished wake bears on the requests held for it. */
export type HeldWakeVerdict =
  | { readonly kind: 'keep-holding' }
  | { readonly kind: 'fail'; readonly refused: boolean; readonly message: string };

/**
 * A wake that reached a pod (or found one running, or is still waiting on it)
 * leaves the held requests waiting for the model; a Failed wake releases them
 * with its reason, naming a refusal (a budget or a guard) as such.
 */
export function heldWakeVerdict(result: {
  readonly outcome: WakeOutcome;
  readonly failureKind: WakeFailureKind | null;
  readonly message: string;
}): HeldWakeVerdict {
  if (result.outcome !== 'Failed') return { kind: 'keep-holding' };
  return { kind: 'fail', refused: result.failureKind === 'refused', message: result.message };
}

/**
 * The pod proxy's own answer, not vLLM's (JSON, even its 404): RunPod's edge serves HTML 404 while the pod
 * is not running and HTML 502 while nothing listens on the port. The model is not serving, whatever the
 * idle monitor last recorded: the request is cold again.
 */
export function isPodProxyNotServing(status: number, contentType: string | null): boolean {
  const html = contentType !== null && contentType.toLowerCase().startsWith('text/html');
  return html && (status === 404 || status === 502 || status === 503);
}
