import {
  decideCreatedPodRound,
  describeLeftToBoot,
  describeMismatches,
  type GpuCandidate,
  type LastSeen,
  type RequestedContract,
} from '@podwarden/policies';
import type { WakeRunContext } from '../wake-run-context';
import { createdPodEnded, createdPodLeftToBoot, type WakeResult } from '../wake-result';
import { tearDownCreatedPod } from './tear-down-created-pod';

export type NewPodWait =
  { readonly kind: 'running' } | { readonly kind: 'ended'; readonly result: WakeResult };

/**
 * Polls the pod this wake placed until it runs (WAKE_MAX_POLLS rounds), checking on every read that it is
 * what was asked. One that is not, or that fails, is terminated and the wake fails; one still coming up
 * when the rounds run out is left to boot and the wake ends Waiting. No second create walk follows.
 */
export async function awaitNewPod(
  ctx: WakeRunContext,
  podId: string,
  candidate: GpuCandidate,
): Promise<NewPodWait> {
  const { maxPolls, pollIntervalMs } = ctx.config.wake;
  const requested = requestedContract(ctx, candidate);
  for (let round = 1; ; round++) {
    await ctx.progress.report('poll-new-pod', `round ${round}/${maxPolls}: waiting for pod ${podId} to run`);
    const step = decideCreatedPodRound(await ctx.runpod.observePod(podId), requested, round < maxPolls);
    switch (step.kind) {
      case 'running':
        return { kind: 'running' };
      case 'tear-down': {
        const { verdict } = step;
        if (verdict.kind === 'mismatch') {
          const fields = describeMismatches(verdict.mismatches);
          const torn = await tearDownCreatedPod(ctx, podId, candidate, `not the pod asked for: ${fields}`);
          return ended(
            ctx,
            podId,
            candidate,
            `new pod ${podId} is not the pod asked for (${fields}); ${torn}`,
          );
        }
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
      case 'leave-to-boot':
        return leftToBoot(ctx, podId, candidate, step.lastSeen);
      case 'poll-again':
        await ctx.pause(pollIntervalMs);
        break;
    }
  }
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

function leftToBoot(
  ctx: WakeRunContext,
  podId: string,
  candidate: GpuCandidate,
  lastSeen: LastSeen,
): NewPodWait {
  const { seen, guard } = describeLeftToBoot(lastSeen);
  const { maxPolls } = ctx.config.wake;
  const message =
    `pod ${podId} created on ${candidate.gpuId} at ${candidate.pricePerHour} USD/h is ${seen} after ${maxPolls} polls; ` +
    `left to boot, not terminated: ${guard}; stale pods left intact; poll again`;
  return { kind: 'ended', result: createdPodLeftToBoot(podId, candidate, message, ctx.state.diagnostics()) };
}
