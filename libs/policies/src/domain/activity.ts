/**
 * One scrape of a pod's vLLM /metrics. `active` is running + waiting requests; `completed` sums the
 * monotonic work counters, null (never 0) when no counter family is exposed, since a constant zero would
 * read as idle forever.
 */
export interface PodActivity {
  readonly active: number;
  readonly completed: number | null;
}
