import type { PodActivity } from '../domain/activity';

/** What one successful /metrics scrape says about a pod. */
export type ActivityReading = 'Busy' | 'Idle';

export interface ActivityClassification {
  readonly reading: ActivityReading;
  /** The work-counter baseline to compare the next scrape of this pod against; null means none yet. */
  readonly nextBaseline: number | null;
}

/**
 * Reads one scrape against the previous scrape's work counter. Gauges are sampled once a tick and a chat
 * turn lasts seconds, so a gauge alone reads idle through real use: only an unchanged counter is idle
 * evidence, and only the counter's direction matters, never its size.
 */
export function classifyActivity(current: PodActivity, baseline: number | null): ActivityClassification {
  if (current.completed === null) {
    // No counter in the exposition (an older vLLM): the gauge alone decides so the pod stays
    // stoppable, and there is nothing to replace the baseline with, so it is kept as it was.
    return { reading: current.active > 0 ? 'Busy' : 'Idle', nextBaseline: baseline };
  }
  // Idle needs nothing in flight and the counter where the last scrape left it; all else is Busy (a long
  // generation, a turn between ticks, a restart). The counter is always the next baseline, so a first scrape
  // (null baseline) banks no idle evidence and the ready tick enters Ready with an empty streak.
  const counterStoodStill = current.completed === baseline;
  return {
    reading: current.active > 0 || !counterStoodStill ? 'Busy' : 'Idle',
    nextBaseline: current.completed,
  };
}
