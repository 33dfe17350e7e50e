/**
 * The job's cancellation as an Error, whatever BullMQ was given as the abort
 * reason (cancelJob takes an optional string), so the wake fails with a
 * message instead of throwing a bare string or undefined.
 */
export function cancellationOf(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name !== 'AbortError') return reason;
  const why = typeof reason === 'string' && reason.trim() !== '' ? reason : 'no reason given';
  return new Error(`wake cancelled: ${why}`);
}
