/**
 * What the first GET of a burst awaits before reading RunPod, so callers
 * arriving a few milliseconds apart share one read. Injectable: specs gather
 * for nothing, or until they release it.
 */
export const STATUS_GATHER = Symbol('STATUS_GATHER');

export type Gather = () => Promise<void>;

export const DEFAULT_STATUS_GATHER_MS = 100;

export function gatherFor(ms: number): Gather {
  return () => new Promise((resolve) => setTimeout(resolve, ms));
}
