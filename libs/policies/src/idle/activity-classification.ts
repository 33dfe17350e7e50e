import type { PodActivity } from '../domain/activity';

/** What one successful /metrics scrape says about a pod. */
export type ActivityReading = 'Busy' | 'Idle';

export interface ActivityClassification {
  readonly reading: ActivityReading;
  /** The work-counter baseline to compare the next scrape of this pod against; null means none yet. */
  readonly nextBaseline: number | null;
}

/**
 * Reads one scrape against the previous scrape's work counter. The gauges are
 * sampled once per tick and a chat turn lasts seconds, so the gauge alone reads
 * idle through real use; only an unchanged counter is idle evidence. Only the
 * direction of the counter matters, never its size.
 */
export function classifyActivity(current: PodActivity, baseline: number | null): ActivityClassification {
  if (current.completed === null) {
    // No counter in the exposition (an older vLLM): the gauge alone decides so the pod stays
    // stoppable, and there is nothing to replace the baseline with, so it is kept as it was.
    return { reading: current.active > 0 ? 'Busy' : 'Idle', nextBaseline: baseline };
  }
  // Idle needs both: nothing in flight and the counter exactly where the last scrape left it.
  // Everything else is Busy, and the current counter becomes the next baseline in every case:
  //  - a request in flight: a long generation must never read idle;
  //  - the counter advanced: a turn began and ended between two ticks;
  //  - the counter went backwards: the process restarted, so this tick carries no idle evidence;
  //  - no baseline yet (null never equals a counter): this first scrape seeds the baseline and
  //    banks no idle evidence, so the ready tick enters Ready with an empty streak.
  const counterStoodStill = current.completed === baseline;
  return {
    reading: current.active > 0 || !counterStoodStill ? 'Busy' : 'Idle',
    nextBaseline: current.completed,
  };
}
