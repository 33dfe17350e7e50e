/**
 * How a status read treats a volume's shared snapshot: `serve` it when fresh; `serve-and-refresh` while one
 * reader (the refresh lock's holder) rereads RunPod in the background; `refresh-first` when it is missing,
 * invalidated by a write or too old, so the caller waits for a refresh (its own or another replica's).
 */
export type StatusReadPlan = 'serve' | 'serve-and-refresh' | 'refresh-first';

export interface StatusFreshness {
  /** STATUS_MAX_AGE_MS: how old a snapshot may be before it is refreshed. */
  readonly maxAgeMs: number;
  /** How long a refresh may take: a snapshot older than maxAgeMs plus this was not being polled. */
  readonly refreshBudgetMs: number;
}

/**
 * Under steady polling a snapshot never gets older than the bound plus one refresh, so an older one
 * is from a time nobody was looking: it is not shown, the caller waits for a new read. A snapshot
 * from the future (another replica's clock ahead by more than the bound) is not trusted as fresh.
 */
export function planStatusRead(
  observedAt: number | null,
  now: number,
  freshness: StatusFreshness,
): StatusReadPlan {
  if (observedAt === null) return 'refresh-first';
  const age = now - observedAt;
  if (age > freshness.maxAgeMs + freshness.refreshBudgetMs) return 'refresh-first';
  if (age > freshness.maxAgeMs || age < -freshness.maxAgeMs) return 'serve-and-refresh';
  return 'serve';
}

/** One list and then the pods' observes (in parallel), each bounded by the control-plane budget. */
export function statusFreshness(tuning: {
  readonly statusMaxAgeMs: number;
  readonly runpodConnectTimeoutMs: number;
  readonly runpodTimeoutMs: number;
}): StatusFreshness {
  return {
    maxAgeMs: tuning.statusMaxAgeMs,
    refreshBudgetMs: 2 * (tuning.runpodConnectTimeoutMs + tuning.runpodTimeoutMs),
  };
}
