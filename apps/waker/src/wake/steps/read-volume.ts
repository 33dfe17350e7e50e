import { lookupVolume, type VolumeLookup } from '@podwarden/policies';
import type { WakeRunContext } from '../wake-run-context';

/**
 * Reads which pods sit on our volume in one list call (an unreadable list is never "no pod"). The listing
 * is kept: the termination guard later judges each stale pod on the volume it was listed with.
 */
export async function readVolume(ctx: WakeRunContext): Promise<VolumeLookup> {
  const list = await ctx.runpod.listPods();
  ctx.state.noteListing(list);
  return lookupVolume(list, ctx.pod.volumeId);
}
