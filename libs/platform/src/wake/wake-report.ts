import type { WakeFailureKind, WakeOutcome } from '@podwarden/policies';

/**
 * How a wake ended, in the fields every reader of it shares: the waker's own
 * result, the job's return value (which joiners and the start route read) and
 * the wake history. Each of those adds its own fields; none repeats these.
 */
export interface WakeReport {
  readonly outcome: WakeOutcome;
  readonly failureKind: WakeFailureKind | null;
  /** The pod serving, coming up or that failed; null when the wake reached none. */
  readonly podId: string | null;
  /** Known only for a pod this wake created (or adopted). */
  readonly gpuId: string | null;
  readonly pricePerHour: number | null;
  /** Why, in a sentence; a refusal names what it refused on. */
  readonly message: string;
}

/** What the history keeps beside the report, for whoever diagnoses a wake later. */
export interface WakeDiagnostics {
  readonly candidatesConsidered: number;
  readonly lastProviderStatus: number | null;
}

/** The report alone, without whatever else the value carries (a job result must not grow fields). */
export function wakeReportOf(value: WakeReport): WakeReport {
  const { outcome, failureKind, podId, gpuId, pricePerHour, message } = value;
  return { outcome, failureKind, podId, gpuId, pricePerHour, message };
}
