/**
 * RunPod's own bill against what our records explain. Hourly buckets lag and the current one still grows,
 * so billing *less* than a recorded life is never a finding; only billing no record explains, or more than
 * a recorded life could cost, is.
 */

/** One pod's charge in one hourly bucket, as RunPod reported it. */
export interface BilledBucket {
  readonly podId: string;
  /** Bucket start, epoch ms. */
  readonly startMs: number;
  readonly usd: number;
}

/** A span our action log says a pod was up: an accepted Start/Create to the next accepted Stop/Terminate. */
export interface RecordedSpan {
  readonly fromMs: number;
  /** null while still up. */
  readonly toMs: number | null;
}

/** A pod whose start or create we recorded: its configured pod, price and recorded life. */
export interface RecordedPod {
  readonly podId: string;
  readonly podName: string;
  readonly pricePerHour: number | null;
  readonly spans: readonly RecordedSpan[];
}

export interface MismatchInput {
  readonly buckets: readonly BilledBucket[];
  readonly recorded: readonly RecordedPod[];
  /** Pods listed on a configured volume now, with the configured pod whose volume it is. */
  readonly onVolume: readonly { readonly podId: string; readonly podName: string }[];
  /** Start of the window read (the first bucket's start); recorded life before it is not compared. */
  readonly windowStartMs: number;
  readonly now: number;
}

export interface BillingMismatch {
  readonly podId: string;
  /** The configured pod it concerns (its volume's, or the one whose records name it). */
  readonly podName: string;
  /** `unknown-pod`: billed with no start or create of ours; `exceeds`: billed beyond its recorded life. */
  readonly kind: 'unknown-pod' | 'exceeds';
  readonly billedUsd: number;
  /** price × recorded life in the window (plus nothing); null for an unknown pod. */
  readonly explainedUsd: number | null;
  /** The billed hours: first and last bucket start (ISO) and their count. */
  readonly fromHour: string;
  readonly toHour: string;
  readonly hours: number;
}

/** RunPod bills by the minute and a stop takes effect a little after we record it: per start/stop. */
export const BILLING_GRANULARITY_MINUTES = 2;
/** Rounding and small drifts between the two clocks: a floor and a share of the explained amount. */
export const MISMATCH_TOLERANCE_USD = 0.05;
export const MISMATCH_TOLERANCE_FRACTION = 0.1;

const HOUR_MS = 3_600_000;

/** What a recorded pod's life within [windowStart, now] explains, with its tolerance; null without a price. */
export function explainedUsd(pod: RecordedPod, windowStartMs: number, now: number): number | null {
  if (pod.pricePerHour === null) return null;
  let ms = 0;
  for (const span of pod.spans) {
    const from = Math.max(span.fromMs, windowStartMs);
    const to = Math.min(span.toMs ?? now, now);
    if (to > from) ms += to - from;
  }
  return (pod.pricePerHour * ms) / HOUR_MS;
}

/** The most a recorded life may be billed before it is a finding. */
export function allowedUsd(explained: number, pricePerHour: number, spans: number): number {
  const granularity = (pricePerHour * BILLING_GRANULARITY_MINUTES * Math.max(1, spans)) / 60;
  return explained + granularity + Math.max(MISMATCH_TOLERANCE_USD, explained * MISMATCH_TOLERANCE_FRACTION);
}

/**
 * Every billed pod that our records do not explain: a pod on a configured volume (or named in our records
 * without a start) billed at all, or a recorded pod billed beyond price × recorded life plus the tolerance.
 * Pods neither recorded nor on a configured volume are someone else's and are not judged.
 */
export function findBillingMismatches(input: MismatchInput): BillingMismatch[] {
  const recorded = new Map(input.recorded.map((pod) => [pod.podId, pod]));
  const onVolume = new Map(input.onVolume.map((pod) => [pod.podId, pod.podName]));
  const found: BillingMismatch[] = [];
  for (const [podId, buckets] of groupByPod(input.buckets)) {
    const billed = buckets.reduce((sum, bucket) => sum + bucket.usd, 0);
    if (billed <= 0) continue;
    const ours = recorded.get(podId);
    const hours = describeHours(buckets);
    if (ours === undefined || ours.spans.length === 0) {
      const podName = ours?.podName ?? onVolume.get(podId);
      if (podName === undefined) continue;
      found.push({ podId, podName, kind: 'unknown-pod', billedUsd: billed, explainedUsd: null, ...hours });
      continue;
    }
    const explained = explainedUsd(ours, input.windowStartMs, input.now);
    // Without a price the life cannot be priced: not judged (never a guess either way).
    if (explained === null || ours.pricePerHour === null) continue;
    if (billed > allowedUsd(explained, ours.pricePerHour, ours.spans.length)) {
      found.push({
        podId,
        podName: ours.podName,
        kind: 'exceeds',
        billedUsd: billed,
        explainedUsd: explained,
        ...hours,
      });
    }
  }
  return found.sort((a, b) => a.podId.localeCompare(b.podId));
}

function groupByPod(buckets: readonly BilledBucket[]): Map<string, BilledBucket[]> {
  const byPod = new Map<string, BilledBucket[]>();
  for (const bucket of buckets) {
    if (!Number.isFinite(bucket.usd) || !Number.isFinite(bucket.startMs)) continue;
    byPod.set(bucket.podId, [...(byPod.get(bucket.podId) ?? []), bucket]);
  }
  return byPod;
}

function describeHours(buckets: readonly BilledBucket[]): {
  fromHour: string;
  toHour: string;
  hours: number;
} {
  const billedStarts = buckets.filter((bucket) => bucket.usd > 0).map((bucket) => bucket.startMs);
  const starts = new Set(billedStarts);
  return {
    fromHour: new Date(Math.min(...billedStarts)).toISOString(),
    toHour: new Date(Math.max(...billedStarts)).toISOString(),
    hours: starts.size,
  };
}
