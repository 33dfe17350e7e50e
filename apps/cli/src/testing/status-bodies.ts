/** Builders of gateway answers for the CLI's unit specs (the shapes of docs/contract.md "GET response"). */

export const T0 = Date.parse('2026-12-01T10:00:00.000Z');

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function statusBody(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'qwen',
    configured: true,
    status: 'EXITED',
    isRunning: false,
    podId: null,
    proxyUrl: null,
    podsOnVolume: 0,
    datacenter: 'EU-RO-1',
    lookup: 'FOUND',
    readySince: null,
    wake: null,
    lastWake: null,
    idleStopAt: null,
    runtimeCapAt: null,
    keepAliveUntil: null,
    idleWindow: { minutes: 15, policy: 'fixed', basis: 'fixed window of 15 min' },
    nextPrewakeAt: null,
    ...patch,
  };
}

export function lastWake(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    attemptId: 'a1',
    requestedAt: iso(T0),
    completedAt: iso(T0 + 30_000),
    outcome: 'Succeeded',
    wakeOutcome: 'Created',
    reason: 'created',
    podId: 'pod1',
    gpuId: 'NVIDIA RTX A6000',
    pricePerHour: 0.49,
    ...patch,
  };
}

/** The pod pod1 RUNNING after wake a1, model loaded `readyAfterMs` after the request (null: still loading). */
export function runningBody(
  readyAfterMs: number | null,
  patch: Record<string, unknown> = {},
): Record<string, unknown> {
  return statusBody({
    status: 'RUNNING',
    isRunning: true,
    podId: 'pod1',
    podsOnVolume: 1,
    readySince: readyAfterMs === null ? null : iso(T0 + readyAfterMs),
    lastWake: lastWake(),
    ...patch,
  });
}
