import type { PodActivity } from '@podwarden/policies';
import type { PrometheusSample } from './prometheus-text';

/** Requests in flight right now. */
export const VLLM_LOAD_GAUGES: readonly string[] = ['vllm:num_requests_running', 'vllm:num_requests_waiting'];

/**
 * Monotonic work counters. Exact sample names, so `_created` timestamps are
 * never summed. Several families because series names move between vLLM
 * releases; only the direction of the sum is ever used, so mixing is safe.
 */
export const VLLM_WORK_COUNTERS: readonly string[] = [
  'vllm:request_success_total',
  'vllm:generation_tokens_total',
  'vllm:prompt_tokens_total',
];

/**
 * One scrape reduced to activity, summed over every label series. null without vLLM's families: a 200
 * from something that is not vLLM must not read as idle. Non-finite samples are skipped (no NaN sums).
 */
export function activityFromSamples(samples: readonly PrometheusSample[]): PodActivity | null {
  let active = 0;
  let sawGauge = false;
  let completed = 0;
  let sawCounter = false;
  for (const sample of samples) {
    if (!Number.isFinite(sample.value)) {
      continue;
    }
    if (VLLM_LOAD_GAUGES.includes(sample.name)) {
      active += sample.value;
      sawGauge = true;
    } else if (VLLM_WORK_COUNTERS.includes(sample.name)) {
      completed += sample.value;
      sawCounter = true;
    }
  }
  if (!sawGauge && !sawCounter) {
    return null;
  }
  // No counter at all must stay null, never 0: a constant 0 would read as idle forever.
  return { active, completed: sawCounter ? completed : null };
}
