import type { ActionRecord } from '@podwarden/platform';
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
