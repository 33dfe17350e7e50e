import type { WakeFailureKind, WakeOutcome } from '@podwarden/policies';

/** How one wake ended, before it is shaped into a job result and a history record. */
export interface WakeResult {
  readonly outcome: WakeOutcome;
  readonly failureKind: WakeFailureKind | null;
  readonly podId: string | null;
  /** Known only for a pod this wake created (or adopted). */
  readonly gpuId: string | null;
  readonly pricePerHour: number | null;
  readonly message: string;
  readonly candidatesConsidered: number;
  readonly lastProviderStatus: number | null;
}

export interface WakeContext {
  readonly candidatesConsidered: number;
  readonly lastProviderStatus: number | null;
}

export function refused(message: string, context: WakeContext): WakeResult {
  return {
    outcome: 'Failed',
    failureKind: 'refused',
    podId: null,
    gpuId: null,
    pricePerHour: null,
    message,
    ...context,
  };
}

export function providerFailed(
  message: string,
  context: WakeContext,
  podId: string | null = null,
): WakeResult {
  return {
    outcome: 'Failed',
    failureKind: 'provider',
    podId,
    gpuId: null,
    pricePerHour: null,
    message,
    ...context,
  };
}
