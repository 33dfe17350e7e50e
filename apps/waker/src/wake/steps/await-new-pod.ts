import { decidePod, type GpuCandidate } from '@podwarden/policies';
import type { WakeRunContext } from '../wake-run-context';
import { newPodNotYetRunning, providerFailed, type WakeResult } from '../wake-result';

export type NewPodWait =
  { readonly kind: 'running' } | { readonly kind: 'ended'; readonly result: WakeResult };

/**
 * Polls the pod this wake placed until the pod policy says Done, within
 * WAKE_MAX_POLLS rounds. Not yet listed, unreadable or still starting: poll
 * again. Any other state is terminal for a pod we just paid for: nothing is in
 * flight, so the wake fails (not Waiting) and no second create walk follows.
 */
export async function awaitNewPod(
  ctx: WakeRunContext,
  podId: string,
  candidate: GpuCandidate,
): Promise<NewPodWait> {
  const { maxPolls, pollIntervalMs } = ctx.config.wake;
  for (let round = 1; round <= maxPolls; round++) {
    await ctx.progress.report('poll-new-pod', `round ${round}/${maxPolls}: waiting for pod ${podId} to run`);
    const observation = await ctx.runpod.observePod(podId);
    const verdict = decidePod(observation, false);
    if (verdict === 'Done') return { kind: 'running' };
    if (verdict !== 'WaitAndRepoll' && observation.kind === 'found') {
      const reached = `${observation.status} with ${observation.gpuCount} GPU(s)`;
      return {
        kind: 'ended',
        result: providerFailed(
          `new pod ${podId} reached ${reached}; not retrying`,
          ctx.state.diagnostics(),
          podId,
        ),
      };
    }
    if (round < maxPolls) await ctx.pause(pollIntervalMs);
  }
  return { kind: 'ended', result: newPodNotYetRunning(podId, candidate, maxPolls, ctx.state.diagnostics()) };
}
