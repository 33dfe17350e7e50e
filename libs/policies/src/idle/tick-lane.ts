import type { VolumeLookup } from '../domain/pod';

/**
 * Which concurrency bound a pod's tick runs under. `quiet`: its readable list shows nothing on the volume,
 * so the tick only touches Redis and need not queue behind pods that call RunPod and the proxies. Anything
 * else, an unreadable list included (the cap may stop what was last seen up), is `control-plane`.
 */
export type TickLane = 'quiet' | 'control-plane';

export function tickLaneOf(lookup: VolumeLookup): TickLane {
  return lookup.kind === 'not-found' ? 'quiet' : 'control-plane';
}
