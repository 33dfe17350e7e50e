import type { Dispatcher } from 'undici';
import type { PodActivity } from '@podwarden/policies';
import type { ExchangeTimeouts, RunPodLogger } from './client-options';
import { performExchange, type ExchangeOutcome } from './http-exchange';
import { parsePrometheusText } from './prometheus-text';
import { activityFromSamples } from './vllm-activity';

/** Cloudflare in front of the pod proxy refuses default client User-Agents. */
export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 podwarden';

export interface VllmScrape {
  readonly dispatcher: Dispatcher;
  readonly url: string;
  readonly timeouts: ExchangeTimeouts;
  readonly maxBodyBytes: number;
  /** Removes the API key from anything read back (the pod never gets it, but a body could echo it). */
  readonly scrub: (outcome: ExchangeOutcome) => ExchangeOutcome;
  readonly logger: RunPodLogger;
  readonly logContext: Record<string, unknown>;
  readonly signal?: AbortSignal;
}

/**
 * One scrape of a pod's vLLM /metrics, without the bearer. null whenever it did not reach vLLM (non-2xx,
 * transport failure, timeout, oversized body, no vLLM families): the idle policy reads that as Unknown,
 * never as idle.
 */
export async function scrapeVllmActivity(scrape: VllmScrape): Promise<PodActivity | null> {
  const outcome = scrape.scrub(
    await performExchange(scrape.dispatcher, {
      method: 'GET',
      url: scrape.url,
      headers: { 'user-agent': BROWSER_USER_AGENT, accept: 'text/plain, */*' },
      timeouts: scrape.timeouts,
      maxBodyBytes: scrape.maxBodyBytes,
      signal: scrape.signal,
    }),
  );
  if (outcome.kind === 'failed') {
    scrape.logger.debug({ ...scrape.logContext, reason: outcome.reason }, 'pod metrics unreachable');
    return null;
  }
  if (outcome.status < 200 || outcome.status >= 300) {
    scrape.logger.debug({ ...scrape.logContext, httpStatus: outcome.status }, 'pod metrics unreachable');
    return null;
  }
  const activity = activityFromSamples(parsePrometheusText(outcome.body));
  if (activity === null) {
    scrape.logger.debug(scrape.logContext, 'pod metrics carry no vLLM families');
  }
  return activity;
}
