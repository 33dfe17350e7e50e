/** How often progress may be written: a change no sooner than minGapMs, a heartbeat every heartbeatMs. */
export interface ProgressCadence {
  readonly minGapMs: number;
  readonly heartbeatMs: number;
}

export const DEFAULT_PROGRESS_CADENCE: ProgressCadence = { minGapMs: 2_000, heartbeatMs: 15_000 };

export interface LastProgress {
  readonly text: string;
  readonly at: number;
}

/**
 * Whether a progress line is due: the first one always; then a new state once
 * the gap has passed, and the same state again only as a heartbeat, so a long
 * wait shows it is alive without flooding a log.
 */
export function progressDue(
  last: LastProgress | null,
  text: string,
  now: number,
  cadence: ProgressCadence = DEFAULT_PROGRESS_CADENCE,
): boolean {
  if (last === null) return true;
  const since = now - last.at;
  if (since < cadence.minGapMs) return false;
  return text !== last.text || since >= cadence.heartbeatMs;
}
