import { judgeTermination, type PodObservation } from '@podwarden/policies';
import type { WakeRunContext } from '../wake-run-context';
import type { KeptPod } from '../wake-result';

/**
 * Terminates stale pods only through the termination guard and on what was observed: the replacement is
 * re-read before each terminate (it may have left RUNNING), the stale pod judged on the volume it was
 * listed with. A refusal makes no call; the pod is kept, logged at Warning and reported.
 */
export async function terminateStalePods(
  ctx: WakeRunContext,
  replacementId: string,
  stalePodIds: readonly string[],
  lastRound: readonly PodObservation[] = [],
): Promise<KeptPod[]> {
  const kept: KeptPod[] = [];
  for (const staleId of stalePodIds) {
    if (alreadyTerminated(staleId, lastRound)) continue;
    await ctx.progress.report('terminate', `terminating stale pod ${staleId}`);
    const replacement = await ctx.runpod.observePod(replacementId);
    const judgement = judgeTermination({
      staleId,
      staleVolumeIds: ctx.state.volumesOf(staleId),
      ourVolumeId: ctx.pod.volumeId,
      replacement,
    });
    if (!judgement.allowed) {
      ctx.log.warn(
        { pod: ctx.pod.name, staleId, servingId: replacementId, refusal: judgement.refusal, replacement },
        `termination guard kept stale pod ${staleId} (${judgement.refusal})`,
      );
      kept.push({ podId: staleId, refusal: judgement.refusal });
      continue;
    }
    await terminate(ctx, staleId);
  }
  return kept;
}

async function terminate(ctx: WakeRunContext, staleId: string): Promise<void> {
  const draft = {
    action: 'Terminate',
    podId: staleId,
    gpuId: null,
    pricePerHour: null,
    requestName: null,
  } as const;
  const { result, intent } = await ctx.send(draft, () => ctx.runpod.terminatePod(staleId));
  await ctx.podAction(
    'Terminate',
    staleId,
    result,
    result.ok
      ? `terminated stale pod ${staleId}`
      : `terminate of stale pod ${staleId} refused (HTTP ${result.httpStatus}); kept`,
    intent,
  );
}

// Already gone: a terminate would bill nothing and only add a call.
function alreadyTerminated(podId: string, lastRound: readonly PodObservation[]): boolean {
  const seen = lastRound.find((observation) => observation.podId === podId);
  return seen?.kind === 'found' && seen.status === 'Terminated';
}
