import type { WakeReport } from '../wake/wake-report';

/** The queue other services may enqueue into directly: its name and payload are part of the external contract. */
export const WAKE_QUEUE = 'wake';
export const WAKE_JOB = 'wake';

/** The requester the idle monitor's pre-wakes carry: their RunPod writes are recorded with trigger `prewake`. */
export const PREWAKE_REQUESTER = 'prewake';

export interface WakeJobData {
  readonly podName: string;
  readonly requestedBy?: string;
}

/** What a wake job returns (the job's return value) and what POST …/start answers with. */
export interface WakeJobResult extends WakeReport {
  /** The configured pod name, whatever case the payload used. */
  readonly name: string;
  readonly attemptId: string;
  readonly proxyUrl: string | null;
  /** True when this job joined a wake already in flight for the volume and made no RunPod call. */
  readonly joined: boolean;
}

/**
 * The deduplication id that makes the queue itself the singleton gate for our own producers. Trimmed as
 * @podwarden/producer trims it, so both name one volume's wake with one id.
 */
export function wakeDeduplicationId(volumeId: string): string {
  return `wake:${volumeId.trim()}`;
}
