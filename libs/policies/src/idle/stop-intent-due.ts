/** What the reconcile needs to know of an open write-ahead intent. */
export interface OpenIntentView {
  readonly action: string;
  /** When the intent was written (ISO 8601), just before its call went out. */
  readonly at: string;
  /** Set only by the stop path (gateway, idle monitor): who asked. The waker's intents carry none. */
  readonly trigger?: string;
}

/**
 * Whether an intent was written by the stop path: every Stop, and the ERROR
 * guard's Terminate (which carries its trigger). The idle monitor reconciles
 * these; the waker reconciles its own (starts, creates, terminates) and leaves these alone.
 */
export function isStopPathIntent(intent: Pick<OpenIntentView, 'action' | 'trigger'>): boolean {
  return intent.action === 'Stop' || (intent.action === 'Terminate' && intent.trigger !== undefined);
}

/**
 * Whether the idle monitor reconciles this open intent now: only a stop-path one older than the RunPod
 * client timeout, so a caller still awaiting its answer is never overtaken. An undatable intent is due:
 * no caller can be waiting on it, and leaving it open would hide the call forever.
 */
export function isStopIntentDue(intent: OpenIntentView, now: number, clientTimeoutMs: number): boolean {
  if (!isStopPathIntent(intent)) return false;
  const at = Date.parse(intent.at);
  if (Number.isNaN(at)) return true;
  return now - at > clientTimeoutMs;
}
