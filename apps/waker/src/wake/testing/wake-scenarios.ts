import type { ActionRecord } from '@podwarden/platform';
import { created, found, volumeWith, type FakeRunPod } from '@podwarden/testing';
import { L40S, RANKED_CATALOG } from './gpu-catalogs';
import { scriptedRunPod } from './wake-run-harness';
import { FIXED_NOW } from './fixed-clock';
import { TEST_MAX_POLLS, TEST_POD_NAME, TEST_POLL_INTERVAL_MS } from './test-config';

/** `n` copies of the same calls, for "observed every round until the poll budget ran out". */
export function rounds(n: number, ...calls: string[]): string[] {
  return Array.from({ length: n }, () => calls).flat();
}

/** One billable-action entry as the wake must write it (trigger wake, our pod name, the fixed clock). */
export function wakeAction(entry: Omit<ActionRecord, 'at' | 'podName' | 'trigger'>): ActionRecord {
  return { at: FIXED_NOW, podName: TEST_POD_NAME, trigger: 'wake', ...entry };
}

/** The sleeps between TEST_MAX_POLLS rounds. */
export const POLL_GAPS: readonly number[] = Array.from(
  { length: TEST_MAX_POLLS - 1 },
  () => TEST_POLL_INTERVAL_MS,
);

/**
 * The commonest replacement: the one pod on the volume, p1, runs without a GPU (so it cannot serve and
 * becomes stale), the ranked catalog is read and the create places new1. The scenario scripts the rest.
 */
export function replacingGpulessPod(): FakeRunPod {
  return scriptedRunPod()
    .onList(volumeWith(['p1']))
    .onObserve('p1', found('p1', 'Running', 0))
    .onCatalog(RANKED_CATALOG)
    .onCreate(created('new1'));
}

/** The calls up to a replacement's create when p1 cannot serve: the volume, p1, the catalog, the L40S create. */
export const UNTIL_REPLACEMENT_CREATE: readonly string[] = [
  'list',
  'observe p1',
  'catalog',
  `create ${L40S}`,
];

/** p1 on the volume; its first observe throws (a dropped connection), every later one finds it serving. */
export function throwsOnFirstObserve(): FakeRunPod {
  let observes = 0;
  return scriptedRunPod()
    .alwaysList(volumeWith(['p1']))
    .alwaysObserve('p1', () => {
      observes += 1;
      if (observes === 1) throw new Error('connection reset');
      return found('p1', 'Running', 1);
    });
}
