import type { WakeOutcome, WakeFailureKind } from '@podwarden/policies';

/** The queue other services may enqueue into directly (see CONTRACT.md "Queues"). */
export const WAKE_QUEUE = 'wake';
export const WAKE_JOB = 'wake';

export interface WakeJobData {
  readonly podName: string;
  readonly requestedBy?: string;
}

export type WakeJobDataCheck = { ok: true; data: WakeJobData } | { ok: false; reason: string };

/** Parse, do not trust: a producer outside this repo may send anything. */
export function parseWakeJobData(data: unknown): WakeJobDataCheck {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, reason: 'invalid wake payload: expected an object { podName, requestedBy? }' };
  }
  const record = data as Record<string, unknown>;
  const podName = record.podName;
  if (typeof podName !== 'string' || podName.trim() === '') {
    return { ok: false, reason: 'invalid wake payload: podName must be a non-empty string' };
  }
  const requestedBy = record.requestedBy;
  if (requestedBy !== undefined && typeof requestedBy !== 'string') {
    return { ok: false, reason: 'invalid wake payload: requestedBy must be a string when present' };
  }
  if (typeof requestedBy === 'string' && requestedBy.length > 200) {
    return { ok: false, reason: 'invalid wake payload: requestedBy is longer than 200 characters' };
  }
  return {
    ok: true,
    data: { podName: podName.trim(), ...(requestedBy !== undefined ? { requestedBy } : {}) },
  };
}

/** What a wake job returns (the job's return value) and what POST …/start answers with. */
export interface WakeJobResult {
  readonly name: string;
  readonly attemptId: string;
  readonly outcome: WakeOutcome;
  readonly failureKind: WakeFailureKind | null;
  readonly podId: string | null;
  readonly gpuId: string | null;
  readonly pricePerHour: number | null;
  readonly proxyUrl: string | null;
  readonly message: string;
  /** True when this job joined a wake already in flight for the volume and made no RunPod call. */
  readonly joined: boolean;
}

/** The deduplication id that makes the queue itself the singleton gate for our own producers. */
export function wakeDeduplicationId(volumeId: string): string {
  return `wake:${volumeId}`;
}
