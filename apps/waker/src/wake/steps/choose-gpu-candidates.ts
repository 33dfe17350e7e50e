import { describeExclusions, selectGpus, type GpuCandidate } from '@podwarden/policies';
import type { WakeRunContext } from '../wake-run-context';
import type { WakeResult } from '../wake-result';

export type CandidateChoice =
  | { readonly kind: 'chosen'; readonly candidates: readonly GpuCandidate[] }
  | { readonly kind: 'ended'; readonly result: WakeResult };

/**
 * Before any create: a template must be set, and the GPU selection policy
 * picks the eligible cards from the catalog, cheapest first. With none, the
 * refusal names every card with the reason it was excluded.
 */
export async function chooseGpuCandidates(
  ctx: WakeRunContext,
  stalePodIds: readonly string[],
): Promise<CandidateChoice> {
  const { pod } = ctx;
  if (pod.templateId.trim() === '') {
    return ended(ctx, 'RUNPOD_TEMPLATE_ID is not set, so the wake refuses to create a pod');
  }
  await ctx.progress.report('create', 'reading the GPU catalog');
  const catalog = await ctx.runpod.getCatalog();
  const selection = selectGpus(catalog, {
    dataCenterId: pod.datacenterId,
    minVramGb: pod.minVramGb,
    maxPricePerHour: pod.maxPricePerHour,
    allowlist: pod.gpuAllowlist,
  });
  const { candidates } = selection;
  ctx.state.candidatesConsidered = candidates.length;
  if (candidates.length === 0) {
    const why =
      catalog.length === 0
        ? 'the GPU catalog is unreadable or empty'
        : `no GPU in ${pod.datacenterId} is eligible under ${pod.maxPricePerHour.toFixed(2)} USD/h: ${describeExclusions(selection.excluded)}`;
    return ended(ctx, `no pod can be created: ${why}`);
  }
  ctx.log.info(
    { pod: pod.name, candidates: candidates.map((c) => `${c.gpuId}@${c.pricePerHour}`), stalePodIds },
    `no pod on volume ${pod.volumeId} can serve; creating a replacement`,
  );
  return { kind: 'chosen', candidates };
}

function ended(ctx: WakeRunContext, message: string): CandidateChoice {
  return { kind: 'ended', result: ctx.state.declined(message) };
}
