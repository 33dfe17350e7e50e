/**
 * One scrape of a pod's vLLM /metrics. `active` is running + waiting requests
 * (the gauges); `completed` is the sum of the monotonic work counters, null
 * (never 0) when the exposition carries none of the counter families, because
 * a constant zero would read as idle forever.
 */
export interface PodActivity {
  readonly active: number;
  readonly completed: number | null;
}
