import type { PodStatus } from '../domain/pod';

export interface TerminationRequest {
  readonly staleId: string;
  readonly replacementId: string;
  readonly staleVolumeId: string;
  readonly ourVolumeId: string;
  readonly replacementStatus: PodStatus;
}

/** Why a stale pod is kept; the caller logs it at Warning. */
export type TerminationRefusal = 'BlankPodId' | 'SamePod' | 'NotOurVolume' | 'ReplacementNotRunning';

export type TerminationJudgement =
  { readonly allowed: true } | { readonly allowed: false; readonly refusal: TerminationRefusal };

/**
 * Terminate is the one irreversible call. It is allowed only for a pod that is
 * not the replacement itself (both sit on our volume), that is on exactly our
 * volume, and only once the replacement is Running, so the volume never ends
 * up with nothing serving because of us.
 */
export function judgeTermination(request: TerminationRequest): TerminationJudgement {
  const staleId = request.staleId.trim();
  const replacementId = request.replacementId.trim();
  if (staleId === '' || replacementId === '') {
    return { allowed: false, refusal: 'BlankPodId' };
  }
  if (staleId === replacementId) {
    return { allowed: false, refusal: 'SamePod' };
  }
  if (request.ourVolumeId.trim() === '' || request.staleVolumeId !== request.ourVolumeId) {
    return { allowed: false, refusal: 'NotOurVolume' };
  }
  if (request.replacementStatus !== 'Running') {
    return { allowed: false, refusal: 'ReplacementNotRunning' };
  }
  return { allowed: true };
}

export function mayTerminate(request: TerminationRequest): boolean {
  return judgeTermination(request).allowed;
}
