import type { WakeRunContext } from '../wake-run-context';

/** One start of a stopped pod, counted whether or not RunPod accepts it: a pod gets one start per wake. */
export async function startStoppedPod(ctx: WakeRunContext, podId: string): Promise<void> {
  await ctx.progress.report('start', `starting stopped pod ${podId}`);
  const draft = { action: 'Start', podId, gpuId: null, pricePerHour: null, requestName: null } as const;
  const { result, intent } = await ctx.send(draft, () => ctx.runpod.startPod(podId));
  ctx.state.noteStart(podId, result);
  await ctx.podAction(
    'Start',
    podId,
    result,
    result.ok ? `start issued for pod ${podId}` : `start of pod ${podId} refused (HTTP ${result.httpStatus})`,
    intent,
  );
}
