import type { GpuCandidate, TerminationRefusal } from '@podwarden/policies';
import type { WakeDiagnostics, WakeReport } from '@podwarden/platform';

/** How one wake ended, before it is shaped into a job result and a history record. */
export interface WakeResult extends WakeReport, WakeDiagnostics {}

/** A stale pod the termination guard kept, and why: reported with the wake so the history names it. */
export interface KeptPod {
  readonly podId: string;
  readonly refusal: TerminationRefusal;
}

export function refused(message: string, diagnostics: WakeDiagnostics): WakeResult {
  return { ...nothingReached('Failed', message, diagnostics), failureKind: 'refused' };
}

export function providerFailed(
  message: string,
  diagnostics: WakeDiagnostics,
  podId: string | null = null,
): WakeResult {
  return { ...nothingReached('Failed', message, diagnostics), failureKind: 'provider', podId };
}

/** An operator's stop for the volume took the gate away: the wake starts or creates nothing more. */
export function stoppedByOperator(): WakeResult {
  return providerFailed('stopped by operator; the wake made no RunPod write after the stop', {
    candidatesConsidered: 0,
    lastProviderStatus: null,
  });
}

/** A pod already on the volume serves: one we started, or one that was running. */
export function serving(podId: string, startedByUs: boolean, diagnostics: WakeDiagnostics): WakeResult {
  return startedByUs
    ? { ...nothingReached('Started', `started pod ${podId}`, diagnostics), podId }
    : { ...nothingReached('AlreadyRunning', `pod ${podId} is already running`, diagnostics), podId };
}

export function created(podId: string, candidate: GpuCandidate, diagnostics: WakeDiagnostics): WakeResult {
  return {
    ...onCandidate(podId, candidate, diagnostics),
    outcome: 'Created',
    message: `created pod ${podId} on ${candidate.gpuId} at ${candidate.pricePerHour} USD/h`,
  };
}

/** The poll budget ran out while a pod on the volume was still coming up. */
export function stillStarting(
  podId: string | null,
  maxPolls: number,
  diagnostics: WakeDiagnostics,
): WakeResult {
  return {
    ...nothingReached(
      'Waiting',
      `a pod on the volume is still starting after ${maxPolls} observe rounds; poll again`,
      diagnostics,
    ),
    podId,
  };
}

/** A create may have placed a pod and the volume has not settled yet: post nothing, poll again. */
export function stillInDoubt(count: number, diagnostics: WakeDiagnostics): WakeResult {
  return nothingReached(
    'Waiting',
    `${count} create(s) in doubt may have placed a pod; the volume has not settled, so no create was posted; poll again`,
    diagnostics,
  );
}

/**
 * Out of polls while the pod this wake created is still coming up: left to
 * boot, not terminated (the idle monitor's guards stop it if it never serves).
 */
export function createdPodLeftToBoot(
  podId: string,
  candidate: GpuCandidate,
  message: string,
  diagnostics: WakeDiagnostics,
): WakeResult {
  return { ...onCandidate(podId, candidate, diagnostics), outcome: 'Waiting', message };
}

/** The pod this wake created will not serve (not what was asked, or failed): torn down or gone. */
export function createdPodEnded(
  podId: string,
  candidate: GpuCandidate,
  message: string,
  diagnostics: WakeDiagnostics,
): WakeResult {
  return {
    ...onCandidate(podId, candidate, diagnostics),
    outcome: 'Failed',
    failureKind: 'provider',
    message,
  };
}

/** The guard's refusals become part of the wake's message, and so of its history record. */
export function withKeptPods(result: WakeResult, kept: readonly KeptPod[]): WakeResult {
  if (kept.length === 0) return result;
  const named = kept.map((pod) => `${pod.podId} (${pod.refusal})`).join(', ');
  return { ...result, message: `${result.message}; termination guard kept stale pod(s) ${named}` };
}

function nothingReached(
  outcome: WakeResult['outcome'],
  message: string,
  diagnostics: WakeDiagnostics,
): WakeResult {
  return {
    outcome,
    failureKind: null,
    podId: null,
    gpuId: null,
    pricePerHour: null,
    message,
    ...diagnostics,
  };
}

function onCandidate(podId: string, candidate: GpuCandidate, diagnostics: WakeDiagnostics) {
  return {
    failureKind: null,
    podId,
    gpuId: candidate.gpuId,
    pricePerHour: candidate.pricePerHour,
    ...diagnostics,
  } as const;
}
