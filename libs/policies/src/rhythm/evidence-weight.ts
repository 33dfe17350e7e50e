import { EVIDENCE_HALF_LIFE_DAYS } from './rhythm-constants';

const DAY_MS = 24 * 60 * 60_000;
const DECAY_PER_MS = Math.LN2 / (EVIDENCE_HALF_LIFE_DAYS * DAY_MS);

/** The weight of evidence from `at` as seen at `now`: 1 when fresh, halving every half-life. */
export function evidenceWeight(at: number, now: number): number {
  return Math.exp(-DECAY_PER_MS * Math.max(0, now - at));
}
