/** What readiness knows about the idle ticks. */
export interface TickFreshnessInput {
  readonly checkSeconds: number;
  /** When this process started ticking: the clock runs from there until a first tick completes. */
  readonly startedAtMs: number;
  /** The newest tick any replica completed, if known. */
  readonly lastCompletedAtMs: number | null;
  readonly nowMs: number;
}

export interface TickFreshness {
  readonly fresh: boolean;
  readonly ageMs: number;
  readonly staleAfterMs: number;
}

/** A slow tick (RunPod at its timeouts) may legitimately run past one interval; a minute of slack covers it. */
export const TICK_SLACK_MS = 60_000;

/**
 * Ticks have stopped when none completed for three intervals plus slack:
 * one missed tick is noise, three in a row means the scheduler or the worker
 * is stuck, and an orchestrator should restart the replica.
 */
export function tickFreshness(input: TickFreshnessInput): TickFreshness {
  const staleAfterMs = input.checkSeconds * 3000 + TICK_SLACK_MS;
  const since = Math.max(input.startedAtMs, input.lastCompletedAtMs ?? input.startedAtMs);
  const ageMs = Math.max(0, input.nowMs - since);
  return { fresh: ageMs <= staleAfterMs, ageMs, staleAfterMs };
}
