import {
  advanceCreateWalk,
  createInDoubt,
  describeCreateEnding,
  startCreateWalk,
  type CreatePodResult,
  type CreateWalkEnded,
  type GpuCandidate,
} from '@podwarden/policies';
import type { WakeRunContext } from '../wake-run-context';
import { providerFailed } from '../wake-result';
import { createdPodName } from './created-pod-name';
import type { Placement } from './placement';
import { rereadBeforeRetry } from './reread-before-retry';
import { createsInDoubt, settleCreatesInDoubt } from './settle-creates-in-doubt';

/**
 * Posts creates down the ranked candidates as the create-walk policy says: next card on a per-GPU refusal,
 * the same card again (after a wait and a re-read of the volume) on a throttle or an outage, stop on
 * anything else. The policy bounds the walk.
 */
export async function walkCreateAttempts(
  ctx: WakeRunContext,
  candidates: readonly GpuCandidate[],
  stalePodIds: readonly string[],
): Promise<Placement> {
  let step = startCreateWalk(candidates.length);
  let retryAfterSeconds: number | null = null;
  for (;;) {
    if (step.kind === 'ended') {
      return { kind: 'ended', result: providerFailed(walkEndingMessage(step), ctx.state.diagnostics()) };
    }
    const candidate = candidates[step.candidateIndex];
    if (step.kind === 'created') return { kind: 'placed', podId: step.podId, candidate };
    if (step.retry) {
      const check = await rereadBeforeRetry(ctx, candidate, stalePodIds, retryAfterSeconds);
      if (check.kind !== 'repost') return check;
    } else if ((await createsInDoubt(ctx)).length > 0) {
      // An earlier run's create may still land: the volume settles before this one posts.
      const settled = await settleCreatesInDoubt(ctx, candidate, stalePodIds);
      if (settled.kind !== 'clear') return settled;
    }
    const answer = await postCreate(ctx, candidate);
    retryAfterSeconds = answer.retryAfterSeconds;
    step = advanceCreateWalk(step.state, { httpStatus: answer.httpStatus, podId: answer.podId });
  }
}

async function postCreate(ctx: WakeRunContext, candidate: GpuCandidate): Promise<CreatePodResult> {
  const { gpuId, pricePerHour } = candidate;
  await ctx.progress.report('create', `creating a pod on ${gpuId} at ${pricePerHour} USD/h`);
  const name = createdPodName(ctx.config, ctx.pod, ctx.now());
  const draft = { action: 'Create', podId: null, gpuId, pricePerHour, requestName: name } as const;
  const { result: answer, intent } = await ctx.send(draft, () =>
    ctx.runpod.createPod({
      name,
      templateId: ctx.pod.templateId,
      dataCenterId: ctx.pod.datacenterId,
      gpuId,
      volumeId: ctx.pod.volumeId,
    }),
  );
  ctx.state.noteCreate(answer.httpStatus);
  const accepted = answer.httpStatus >= 200 && answer.httpStatus < 300;
  const inDoubt = createInDoubt(answer.httpStatus, answer.podId);
  await ctx.billable({
    intent,
    inDoubtStatus: inDoubt ? answer.httpStatus : null,
    action: 'Create',
    podId: answer.podId,
    gpuId,
    pricePerHour,
    httpStatus: answer.httpStatus,
    ok: accepted,
    detail: answer.detail,
    // Accepted without an id: a pod may be billing that we cannot name.
    doubtful: accepted && !answer.podId,
    message: !accepted
      ? `create on ${gpuId} returned ${answer.httpStatus}${inDoubt ? '; it may have placed a pod (in doubt)' : ''}`
      : answer.podId
        ? `created pod ${answer.podId} on ${gpuId} at ${pricePerHour} USD/h`
        : `create on ${gpuId} returned ${answer.httpStatus} without a pod id`,
  });
  return answer;
}

function walkEndingMessage(step: CreateWalkEnded): string {
  return step.ending === 'CreatedWithoutId'
    ? 'RunPod answered the create with success but no pod id; not retrying (check the volume for an untracked pod)'
    : `create ${describeCreateEnding(step)}`;
}
