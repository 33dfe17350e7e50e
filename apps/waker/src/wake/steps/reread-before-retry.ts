import type { GpuCandidate } from '@podwarden/policies';
import type { WakeRunContext } from '../wake-run-context';
import type { Placement } from './placement';
import { settleCreatesInDoubt } from './settle-creates-in-doubt';

export type RetryCheck = { readonly kind: 'repost' } | Placement;

/**
 * Before a create is posted again: wait as RunPod asked (capped), then re-read the volume. A 5xx can come
 * after RunPod committed the create, so a new pod there is adopted instead of billing a second one; an
 * unreadable volume is never a licence to re-post.
 */
export async function rereadBeforeRetry(
  ctx: WakeRunContext,
  candidate: GpuCandidate,
  stalePodIds: readonly string[],
  retryAfterSeconds: number | null,
): Promise<RetryCheck> {
  const { pollIntervalMs, maxRetryAfterSeconds } = ctx.config.wake;
  const waitSeconds = Math.min(retryAfterSeconds ?? pollIntervalMs / 1000, maxRetryAfterSeconds);
  await ctx.progress.report(
    'retry-wait',
    `RunPod asked to retry; waiting ${waitSeconds}s before re-reading the volume`,
  );
  await ctx.pause(waitSeconds * 1000);
  const settled = await settleCreatesInDoubt(ctx, candidate, stalePodIds);
  return settled.kind === 'clear' ? { kind: 'repost' } : settled;
}
