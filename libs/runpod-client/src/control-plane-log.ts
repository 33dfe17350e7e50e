import type { RunPodLogger } from './client-options';
import type { ExchangeOutcome, HttpMethod } from './http-exchange';
import { parseJson } from './json-reading';
import { problemText } from './problem-details';

/**
 * One line per control-plane call: debug on 2xx, warn with RunPod's problem text otherwise, so the warnings
 * show every call that did not do what was asked. The outcome is already scrubbed of the key.
 */
export function logControlPlaneOutcome(
  logger: RunPodLogger,
  op: string,
  method: HttpMethod,
  path: string,
  outcome: ExchangeOutcome,
): void {
  if (outcome.kind === 'failed') {
    logger.warn({ op, method, path, reason: outcome.reason }, 'runpod call failed');
    return;
  }
  if (outcome.status >= 200 && outcome.status < 300) {
    logger.debug({ op, method, path, httpStatus: outcome.status }, 'runpod call answered');
    return;
  }
  const parsed = parseJson(outcome.body);
  const detail = parsed.ok ? problemText(parsed.value) : null;
  logger.warn({ op, method, path, httpStatus: outcome.status, detail }, 'runpod call refused');
}
