import type { PodObservation, PodStatus } from '../domain/pod';
import type { ActivityClassification } from './activity-classification';

/** Work-counter baselines by pod id (a plain JSON value, shared through Redis). */
export type BaselineBook = Readonly<Record<string, number>>;

/** What a tick learned about the process behind one pod id. */
export type BaselineEvent =
  | { readonly kind: 'scraped'; readonly nextBaseline: number | null }
  | { readonly kind: 'unreachable' }
  | { readonly kind: 'ended' };

export interface BaselineUpdate {
  readonly podId: string;
  readonly event: BaselineEvent;
}

export function baselineOf(book: BaselineBook, podId: string): number | null {
  return Object.hasOwn(book, podId) ? book[podId] : null;
}

/**
 * A baseline outlives an unreachable tick, or a pod whose /metrics flaps would never finish a streak.
 * It dies with its process: RunPod reuses the id across stop/start and the new process counts from zero,
 * so old totals would read idle on the ready tick. Pods gone from the volume are pruned.
 */
export function nextBaselines(
  book: BaselineBook,
  podsOnVolume: readonly string[],
  updates: ReadonlyArray<BaselineUpdate>,
): BaselineBook {
  const baselines = new Map(Object.entries(book));
  for (const { podId, event } of updates) {
    if (event.kind === 'scraped' && event.nextBaseline !== null) {
      baselines.set(podId, event.nextBaseline);
    } else if (event.kind !== 'unreachable') {
      // Ended, or scraped with no counter and no baseline to keep.
      baselines.delete(podId);
    }
  }
  const onVolume = new Set(podsOnVolume);
  // fromEntries defines own properties, so an id such as "__proto__" stays data.
  return Object.fromEntries([...baselines].filter(([podId]) => onVolume.has(podId)));
}

// Starting again or positively down: either way the process that set the baseline is gone.
const PROCESS_ENDED_STATUSES: ReadonlySet<PodStatus> = new Set<PodStatus>([
  'Provisioning',
  'Starting',
  'Exited',
  'Error',
  'Terminated',
]);

/** A confirmed down or startup observation: the counters behind this id start again from zero. */
export function processEnded(observation: PodObservation | null): boolean {
  return (
    observation !== null && observation.kind === 'found' && PROCESS_ENDED_STATUSES.has(observation.status)
  );
}

/**
 * The event one pod's tick reports: its classification when /metrics answered,
 * else whether the control plane confirmed its process ended. A stop the control
 * plane accepted is also 'ended'; the caller reports that one itself.
 */
export function baselineEvent(
  scrape: ActivityClassification | null,
  observation: PodObservation | null,
): BaselineEvent {
  if (scrape !== null) {
    return { kind: 'scraped', nextBaseline: scrape.nextBaseline };
  }
  return processEnded(observation) ? { kind: 'ended' } : { kind: 'unreachable' };
}
