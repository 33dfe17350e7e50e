/**
 * Runs of a pod (wake to stop) assembled from durable records: the action log, the ready log (when the
 * model first answered) and completed wakes (for a price the actions lack). The figures are observations,
 * never RunPod's bill.
 */

/** An action-log entry, as far as runs need it. */
export interface RunAction {
  readonly at: string;
  readonly action: string;
  readonly podId: string | null;
  readonly gpuId: string | null;
  readonly pricePerHour: number | null;
  readonly ok: boolean;
  readonly trigger: string;
}

/** The idle monitor saw the model answer on this pod for the first time since it came up. */
export interface RunReadyEdge {
  readonly at: string;
  readonly podId: string | null;
  readonly gpuId: string | null;
  readonly pricePerHour: number | null;
}

/** A wake's placement, used only to fill a price or GPU the actions lack. */
export interface RunWakePlacement {
  readonly podId: string | null;
  readonly gpuId: string | null;
  readonly pricePerHour: number | null;
}

export interface PodRunRecords {
  readonly actions: readonly RunAction[];
  readonly ready: readonly RunReadyEdge[];
  readonly wakes: readonly RunWakePlacement[];
}

export interface PodRun {
  readonly podId: string;
  readonly gpuId: string | null;
  readonly pricePerHour: number | null;
  /** The accepted start or create; null when it is not in the records read (older, or outside podwarden). */
  readonly startedAt: string | null;
  readonly readyAt: string | null;
  /** The first accepted stop or terminate; null while running or when no stop was recorded. */
  readonly stoppedAt: string | null;
  /** Start to stop, or to now while running; null when either end is unknown. */
  readonly uptimeSeconds: number | null;
  readonly timeToReadySeconds: number | null;
  /** Ready to stop (or now); 0 for a run that never became ready; null when an end is unknown. */
  readonly usableSeconds: number | null;
  readonly stopTrigger: string | null;
  /** pricePerHour × observed uptime, in USD; an estimate. */
  readonly estimatedCostUsd: number | null;
}

const STARTS = new Set(['Start', 'Create']);
const STOPS = new Set(['Stop', 'Terminate']);

interface Draft {
  readonly podId: string;
  readonly startedAt: number | null;
  readonly start: RunAction | null;
  stop: RunAction | null;
  /** Set when a later start of the same pod came without a recorded stop: the end is unknown. */
  supersededAt: number | null;
}

/** Runs newest first (by start, else by stop), at most `limit`. */
export function podRuns(records: PodRunRecords, now: number, limit: number): PodRun[] {
  const drafts = draftRuns(records.actions);
  return drafts
    .map((draft) => finish(draft, records, now))
    .sort((a, b) => sortKey(b) - sortKey(a))
    .slice(0, limit);
}

function draftRuns(actions: readonly RunAction[]): Draft[] {
  const ordered = actions
    .filter((a) => a.ok && a.podId !== null && (STARTS.has(a.action) || STOPS.has(a.action)))
    .map((a, index) => ({ a, index, at: Date.parse(a.at) }))
    .filter(({ at }) => Number.isFinite(at))
    .sort((x, y) => x.at - y.at || y.index - x.index);
  const drafts: Draft[] = [];
  const latest = new Map<string, Draft>();
  for (const { a, at } of ordered) {
    const podId = a.podId as string;
    const last = latest.get(podId);
    if (STARTS.has(a.action)) {
      if (last !== undefined && last.stop === null && last.supersededAt === null) last.supersededAt = at;
      const draft: Draft = { podId, startedAt: at, start: a, stop: null, supersededAt: null };
      drafts.push(draft);
      latest.set(podId, draft);
    } else if (last === undefined) {
      // A stop whose start is not in the records: a run with an unknown start.
      const draft: Draft = { podId, startedAt: null, start: null, stop: a, supersededAt: null };
      drafts.push(draft);
      latest.set(podId, draft);
    } else if (last.stop === null && last.supersededAt === null) {
      last.stop = a;
    }
    // Otherwise a repeated stop of a pod already stopped (a retry, or terminating a stopped pod): same run.
  }
  return drafts;
}

function finish(draft: Draft, records: PodRunRecords, now: number): PodRun {
  const stoppedAt = draft.stop === null ? null : Date.parse(draft.stop.at);
  const running = draft.stop === null && draft.supersededAt === null;
  const end = stoppedAt ?? (running ? now : null);
  const ready = readyEdgeOf(draft, records.ready, stoppedAt ?? draft.supersededAt ?? now);
  const readyAt = ready === null ? null : Date.parse(ready.at);
  const { gpuId, pricePerHour } = placementOf(draft, ready, records.wakes);
  const uptimeMs = draft.startedAt !== null && end !== null ? Math.max(0, end - draft.startedAt) : null;
  return {
    podId: draft.podId,
    gpuId,
    pricePerHour,
    startedAt: isoOrNull(draft.startedAt),
    readyAt: isoOrNull(readyAt),
    stoppedAt: isoOrNull(stoppedAt),
    uptimeSeconds: seconds(uptimeMs),
    timeToReadySeconds:
      readyAt !== null && draft.startedAt !== null ? seconds(Math.max(0, readyAt - draft.startedAt)) : null,
    usableSeconds: usableSeconds(readyAt, draft.startedAt, end),
    stopTrigger: draft.stop?.trigger ?? null,
    estimatedCostUsd:
      pricePerHour === null || uptimeMs === null
        ? null
        : Math.round((pricePerHour * uptimeMs) / 3.6) / 1_000_000,
  };
}

/** The first ready edge of this pod inside the run (from its start, before its end). */
function readyEdgeOf(draft: Draft, edges: readonly RunReadyEdge[], until: number): RunReadyEdge | null {
  let first: RunReadyEdge | null = null;
  for (const edge of edges) {
    const at = Date.parse(edge.at);
    if (edge.podId !== draft.podId || !Number.isFinite(at) || at > until) continue;
    if (draft.startedAt !== null && at < draft.startedAt) continue;
    if (first === null || at < Date.parse(first.at)) first = edge;
  }
  return first;
}

/** GPU and price from the run's own start, else its ready edge, else its stop, else a wake that placed the pod. */
function placementOf(
  draft: Draft,
  ready: RunReadyEdge | null,
  wakes: readonly RunWakePlacement[],
): { gpuId: string | null; pricePerHour: number | null } {
  const sources: ReadonlyArray<RunWakePlacement | null> = [
    draft.start,
    ready,
    draft.stop,
    ...wakes.filter((wake) => wake.podId === draft.podId),
  ];
  const known = sources.filter((s): s is RunWakePlacement => s !== null);
  return {
    gpuId: known.find((s) => s.gpuId !== null)?.gpuId ?? null,
    pricePerHour: known.find((s) => s.pricePerHour !== null)?.pricePerHour ?? null,
  };
}

/** Ready to end; 0 when a run with a known start never became ready (it may have before an unknown start). */
function usableSeconds(readyAt: number | null, startedAt: number | null, end: number | null): number | null {
  if (end === null) return null;
  if (readyAt !== null) return seconds(end - readyAt);
  return startedAt === null ? null : 0;
}

function sortKey(run: PodRun): number {
  return Date.parse(run.startedAt ?? run.stoppedAt ?? '') || 0;
}

function seconds(ms: number | null): number | null {
  return ms === null ? null : Math.round(Math.max(0, ms) / 100) / 10;
}

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
