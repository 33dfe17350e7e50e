/**
 * What the adaptive idle policy learns from: one pod's uses, boots and stops,
 * as plain data (epoch milliseconds). The live system keeps it in Redis; a
 * what-if replay builds it as the simulated pod serves a trace.
 */
export interface Use {
  /** When the request arrived (at the proxy), or the first Busy tick's interval start. */
  readonly start: number;
  /** When it finished. */
  readonly end: number;
}

export interface Boot {
  /** When the wake (or pre-wake) began. */
  readonly wakeAt: number;
  /** When the model first answered. */
  readonly readyAt: number;
  readonly gpuId: string | null;
  readonly pricePerHour: number | null;
  readonly prewake: boolean;
}

export interface StopMark {
  readonly at: number;
  readonly trigger: string;
}

export interface UsageRecord {
  /** Oldest first. */
  readonly uses: readonly Use[];
  readonly boots: readonly Boot[];
  readonly stops: readonly StopMark[];
}

export const EMPTY_USAGE: UsageRecord = { uses: [], boots: [], stops: [] };

const MINUTE_MS = 60_000;

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The pod's typical boot, wake to model-ready, in minutes; null before any boot was measured. */
export function measuredBootMinutes(boots: readonly Boot[]): number | null {
  const minutes = boots
    .filter((boot) => boot.readyAt >= boot.wakeAt)
    .map((b) => (b.readyAt - b.wakeAt) / MINUTE_MS);
  return median(minutes);
}

/** The price the pod last ran at; null when no boot carried one. */
export function latestPrice(boots: readonly Boot[]): number | null {
  for (let i = boots.length - 1; i >= 0; i -= 1) {
    const price = boots[i].pricePerHour;
    if (price !== null && price > 0) return price;
  }
  return null;
}

/** Keeps what falls inside the retention window (and at most `maxUses` newest uses). */
export function retainUsage(
  record: UsageRecord,
  now: number,
  retentionDays: number,
  maxUses: number,
): UsageRecord {
  const since = now - retentionDays * 24 * 60 * MINUTE_MS;
  const uses = record.uses.filter((use) => use.end >= since);
  return {
    uses: uses.length > maxUses ? uses.slice(uses.length - maxUses) : uses,
    boots: record.boots.filter((boot) => boot.wakeAt >= since),
    stops: record.stops.filter((stop) => stop.at >= since),
  };
}
