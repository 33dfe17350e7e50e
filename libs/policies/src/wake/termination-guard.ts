import type { PodObservation } from '../domain/pod';

/** A terminate the wake is about to issue, with what it observed of both pods. */
export interface TerminationRequest {
  readonly staleId: string;
  /** Volumes the stale pod mounted in the newest listing the wake read; empty when it was not listed. */
  readonly staleVolumeIds: readonly string[];
  readonly ourVolumeId: string;
  /** The replacement as observed right before the call, not as it was some rounds ago. */
  readonly replacement: PodObservation;
}

/** Why a stale pod is kept; the caller logs it at Warning and reports it with the wake. */
export type TerminationRefusal = 'BlankPodId' | 'SamePod' | 'NotOurVolume' | 'ReplacementNotRunning';

export type TerminationJudgement =
  { readonly allowed: true } | { readonly allowed: false; readonly refusal: TerminationRefusal };

/**
 * Terminate is the one irreversible call: only for a pod that is not the replacement, listed on exactly our
 * volume, and only while the replacement is observed Running with a GPU, so the volume never ends up with
 * nothing serving because of us.
 */
export function judgeTermination(request: TerminationRequest): TerminationJudgement {
  const staleId = request.staleId.trim();
  const replacementId = request.replacement.podId.trim();
  if (staleId === '' || replacementId === '') {
    return { allowed: false, refusal: 'BlankPodId' };
  }
  if (staleId === replacementId) {
    return { allowed: false, refusal: 'SamePod' };
  }
  if (request.ourVolumeId.trim() === '' || !request.staleVolumeIds.includes(request.ourVolumeId)) {
    return { allowed: false, refusal: 'NotOurVolume' };
  }
  if (!isServing(request.replacement)) {
    return { allowed: false, refusal: 'ReplacementNotRunning' };
  }
  return { allowed: true };
}

// Running without a GPU cannot serve: terminating next to it would leave nothing that does.
function isServing(observation: PodObservation): boolean {
  return observation.kind === 'found' && observation.status === 'Running' && observation.gpuCount >= 1;
}
