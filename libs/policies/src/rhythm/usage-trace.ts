import type { UsageRecord } from './usage-record';
import { measuredBootMinutes, latestPrice } from './usage-record';

/** The contract's trace: what `podwarden what-if` replays and `GET …/usage` returns. */
export interface TraceRequest {
  /** ISO 8601 arrival time. */
  readonly at: string;
  /** How long the request occupies the pod once served. */
  readonly seconds: number;
}

export interface UsageTrace {
  readonly bootMinutes: number;
  readonly pricePerHour: number;
  readonly requests: readonly TraceRequest[];
}

export type TraceParse =
  | { readonly kind: 'parsed'; readonly trace: UsageTrace }
  | { readonly kind: 'invalid'; readonly reason: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positiveNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/** Reads a trace document; the first defect found is the reason it is refused. */
export function parseUsageTrace(document: unknown): TraceParse {
  if (!isRecord(document)) return { kind: 'invalid', reason: 'a trace is a JSON object' };
  const { bootMinutes, pricePerHour, requests } = document;
  if (!positiveNumber(bootMinutes))
    return { kind: 'invalid', reason: 'bootMinutes must be a positive number' };
  if (!positiveNumber(pricePerHour))
    return { kind: 'invalid', reason: 'pricePerHour must be a positive number' };
  if (!Array.isArray(requests)) return { kind: 'invalid', reason: 'requests must be an array' };
  const parsed: TraceRequest[] = [];
  for (const [index, request] of requests.entries()) {
    if (!isRecord(request)) return { kind: 'invalid', reason: `requests[${index}] must be an object` };
    const { at, seconds } = request;
    if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) {
      return { kind: 'invalid', reason: `requests[${index}].at must be an ISO 8601 time` };
    }
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
      return { kind: 'invalid', reason: `requests[${index}].seconds must be a number of seconds >= 0` };
    }
    parsed.push({ at, seconds });
  }
  return { kind: 'parsed', trace: { bootMinutes, pricePerHour, requests: parsed } };
}

/**
 * A pod's usage record as a trace: its uses become requests (arrival and
 * length), its measured boot and last price the trace's constants, with the
 * given fallbacks before any boot was measured.
 */
export function usageAsTrace(
  record: UsageRecord,
  fallbackBootMinutes: number,
  fallbackPrice: number,
): UsageTrace {
  return {
    bootMinutes: measuredBootMinutes(record.boots) ?? fallbackBootMinutes,
    pricePerHour: latestPrice(record.boots) ?? fallbackPrice,
    requests: [...record.uses]
      .sort((a, b) => a.start - b.start)
      .map((use) => ({
        at: new Date(use.start).toISOString(),
        seconds: Math.max(0, (use.end - use.start) / 1000),
      })),
  };
}
