/** What the reconcile needs to know of an open write-ahead intent. */
export interface OpenIntentView {
  readonly action: string;
  /** When the intent was written (ISO 8601), just before its call went out. */
  readonly at: string;
}

/**
 * Whether the idle monitor reconciles this open intent now: only a Stop (the
 * waker reconciles its own starts, creates and terminates), and only once it
 * is older than the RunPod client timeout, so a caller still waiting for its
 * answer is never overtaken. An unreadable time is due: no caller can be
 * waiting on an intent nobody can date, and leaving it open would hide the stop forever.
 */
export function isStopIntentDue(intent: OpenIntentView, now: number, clientTimeoutMs: number): boolean {
  if (intent.action !== 'Stop') return false;
  const at = Date.parse(intent.at);
  if (Number.isNaN(at)) return true;
  return now - at > clientTimeoutMs;
}
