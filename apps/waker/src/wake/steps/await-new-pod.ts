import {
  describeMismatches,
  judgeCreatedPod,
  type GpuCandidate,
  type RequestedContract,
} from '@podwarden/policies';
import type { WakeRunContext } from '../wake-run-context';
import { createdPodEnded, type WakeResult } from '../wake-result';
import { tearDownCreatedPod } from './tear-down-created-pod';

export type NewPodWait =
  { readonly kind: 'running' } | { readonly kind: 'ended'; readonly result: WakeResult };

/**
 * Polls the pod this wake placed until it runs, within WAKE_MAX_POLLS rounds,
 * judging every read with the created-pod policy: what RunPod placed must be
 * what was asked (volume, datacenter, GPU, price), from the first read that
 * finds it to the one that sees it run. A pod that is not what was asked, that
 * fails, or that still does not run when the rounds run out is terminated by
 * this wake and the wake fails; no second create walk follows.
 */
export async function awaitNewPod(
  ctx: WakeRunContext,
  podId: string,
  candidate: GpuCandidate,
): Promise<NewPodWait> {
  const { maxPolls, pollIntervalMs } = ctx.config.wake;
  const requested = requestedContract(ctx, candidate);
  for (let round = 1; round <= maxPolls; round++) {
    await ctx.progress.report('poll-new-pod', `round ${round}/${maxPolls}: waiting for pod ${podId} to run`);
    const verdict = judgeCreatedPod(await ctx.runpod.observePod(podId), requested);
    switch (verdict.kind) {
      case 'running':
        return { kind: 'running' };
      case 'mismatch': {
        const fields = describeMismatches(verdict.mismatches);
        const torn = await tearDownCreatedPod(ctx, podId, candidate, `not the pod asked for: ${fields}`);
        return ended(ctx, podId, candidate, `new pod ${podId} is not the pod asked for (${fields}); ${torn}`);
      }
      case 'failed': {
        const torn = await tearDownCreatedPod(ctx, podId, candidate, `reached ${verdict.reached}`);
        return ended(
          ctx,
          podId,
          candidate,
          `new pod ${podId} reached ${verdict.reached}; ${torn}; not retrying`,
        );
      }
      case 'gone':
        return ended(ctx, podId, candidate, `new pod ${podId} reached Terminated; not retrying`);
      case 'wait':
        break;
    }
    if (round < maxPolls) await ctx.pause(pollIntervalMs);
  }
  const torn = await tearDownCreatedPod(ctx, podId, candidate, `not running after ${maxPolls} polls`);
  return ended(
    ctx,
    podId,
    candidate,
    `pod ${podId} created on ${candidate.gpuId} but not running after ${maxPolls} polls; ${torn}; stale pods left intact`,
  );
}

function requestedContract(ctx: WakeRunContext, candidate: GpuCandidate): RequestedContract {
  return {
    volumeId: ctx.pod.volumeId,
    dataCenterId: ctx.pod.datacenterId,
    gpuId: candidate.gpuId,
    maxPricePerHour: ctx.pod.maxPricePerHour,
  };
}

function ended(ctx: WakeRunContext, podId: string, candidate: GpuCandidate, message: string): NewPodWait {
  return { kind: 'ended', result: createdPodEnded(podId, candidate, message, ctx.state.diagnostics()) };
}
