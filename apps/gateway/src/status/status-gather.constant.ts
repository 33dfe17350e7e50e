/**
 * How long the first GET of a burst waits before reading RunPod, so callers
 * arriving a few milliseconds apart share one read. Injectable so specs can
 * set it (0 there unless a spec is about the window itself).
 */
export const STATUS_GATHER_MS = Symbol('STATUS_GATHER_MS');
export const DEFAULT_STATUS_GATHER_MS = 100;
