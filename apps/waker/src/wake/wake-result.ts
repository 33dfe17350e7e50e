import type { WakeDiagnostics, WakeReport } from '@podwarden/platform';

/** How one wake ended, before it is shaped into a job result and a history record. */
export interface WakeResult extends WakeReport, WakeDiagnostics {}

export type WakeContext = WakeDiagnostics;

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
