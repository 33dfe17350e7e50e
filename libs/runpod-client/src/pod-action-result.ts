import type { ExchangeOutcome } from './http-exchange';
import { parseJson } from './json-reading';
import { problemText } from './problem-details';

/** What a start, stop or terminate call got: ok exactly on 2xx; httpStatus 0 when nothing answered. */
export interface PodActionResult {
  readonly ok: boolean;
  readonly httpStatus: number;
  readonly detail: string | null;
}

export function actionResultFromOutcome(outcome: ExchangeOutcome): PodActionResult {
  if (outcome.kind === 'failed') {
    return { ok: false, httpStatus: 0, detail: outcome.reason };
  }
  const ok = outcome.status >= 200 && outcome.status < 300;
  const parsed = parseJson(outcome.body);
  return { ok, httpStatus: outcome.status, detail: ok || !parsed.ok ? null : problemText(parsed.value) };
}
