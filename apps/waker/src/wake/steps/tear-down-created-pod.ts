import type { GpuCandidate } from '@podwarden/policies';
import type { WakeRunContext } from '../wake-run-context';

/**
 * The creator cleans up what it placed: a created pod with a terminal verdict (not what was asked, or
 * failed) is terminated by the wake itself; one still booting when the wake gives up is not.
 */
export async function tearDownCreatedPod(
  ctx: WakeRunContext,
  podId: string,
  candidate: GpuCandidate,
  why: string,
): Promise<string> {
  await ctx.progress.report('terminate', `terminating pod ${podId} this wake created: ${why}`);
  const { gpuId, pricePerHour } = candidate;
  const draft = { action: 'Terminate', podId, gpuId, pricePerHour, requestName: null } as const;
  const { result, intent } = await ctx.send(draft, () => ctx.runpod.terminatePod(podId));
  await ctx.billable({
    intent,
    action: 'Terminate',
    podId,
    gpuId: candidate.gpuId,
    pricePerHour: candidate.pricePerHour,
    httpStatus: result.httpStatus,
    ok: result.ok,
    detail: result.detail ?? why,
    message: result.ok
      ? `terminated pod ${podId} this wake created (${why})`
      : `terminate of pod ${podId} this wake created refused (HTTP ${result.httpStatus}); it may still bill`,
  });
  return result.ok
    ? `terminated by this wake`
    : `its terminate was refused (HTTP ${result.httpStatus}); it may still bill`;
}
