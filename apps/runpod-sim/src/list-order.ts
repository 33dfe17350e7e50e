import { PodView, SimPod } from './pod-lifecycle';
import { ListOrder } from './scenario';
import { RandomSource, shuffled } from './seeded-random';

/**
 * GET /pods order. The real order is unspecified, so a client must not depend
 * on it; these modes let tests prove that. 'stale-first' puts EXITED and
 * TERMINATED pods ahead of live ones — the order that trips a first-match lookup.
 */
export interface ListedEntry {
  readonly pod: SimPod;
  readonly view: PodView;
}

export function orderListed(
  entries: readonly ListedEntry[],
  order: ListOrder,
  random: RandomSource,
): ListedEntry[] {
  const created = [...entries].sort(
    (a, b) => a.pod.createdAtWall - b.pod.createdAtWall || a.pod.seq - b.pod.seq,
  );
  switch (order) {
    case 'created':
      return created;
    case 'reverse':
      return created.reverse();
    case 'stale-first': {
      const isStale = (entry: ListedEntry): boolean =>
        entry.view.status === 'EXITED' || entry.view.status === 'TERMINATED';
      return [...created.filter(isStale), ...created.filter((entry) => !isStale(entry))];
    }
    case 'shuffled':
      return shuffled(created, random);
  }
}
