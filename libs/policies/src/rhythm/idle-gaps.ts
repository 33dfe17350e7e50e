import type { Use } from './usage-record';

/** The silence between two uses: it ended (the next use began) at `endedAt`, after `minutes`. */
export interface IdleGap {
  readonly endedAt: number;
  readonly minutes: number;
}

const MINUTE_MS = 60_000;

/**
 * The idle gaps between a pod's uses. Overlapping uses (concurrent requests)
 * are one busy span; a gap is the time from the end of every earlier use to
 * the next use's start. Uses need not be sorted.
 */
export function idleGaps(uses: readonly Use[]): IdleGap[] {
  const sorted = [...uses].sort((a, b) => a.start - b.start || a.end - b.end);
  const gaps: IdleGap[] = [];
  let busyUntil = Number.NEGATIVE_INFINITY;
  for (const use of sorted) {
    if (use.start > busyUntil && busyUntil !== Number.NEGATIVE_INFINITY) {
      gaps.push({ endedAt: use.start, minutes: (use.start - busyUntil) / MINUTE_MS });
    }
    busyUntil = Math.max(busyUntil, use.end);
  }
  return gaps;
}

/**
 * Session starts: uses that began after more than `longerThanMinutes` of
 * silence (and the very first use), i.e. the arrivals that meet a cold pod
 * under a fixed window of that length.
 */
export function sessionStarts(uses: readonly Use[], longerThanMinutes: number): number[] {
  const sorted = [...uses].sort((a, b) => a.start - b.start || a.end - b.end);
  const starts: number[] = [];
  let busyUntil = Number.NEGATIVE_INFINITY;
  for (const use of sorted) {
    if (use.start - busyUntil > longerThanMinutes * MINUTE_MS) starts.push(use.start);
    busyUntil = Math.max(busyUntil, use.end);
  }
  return starts;
}
