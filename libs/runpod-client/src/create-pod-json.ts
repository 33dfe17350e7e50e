import { z } from 'zod';
import type { CreatePodResult } from '@podwarden/policies';
import type { ExchangeOutcome } from './http-exchange';
import { nonBlankText, parseJson } from './json-reading';
import { problemText } from './problem-details';
import { parseRetryAfterSeconds } from './retry-after';

export interface CreatePodRequest {
  readonly name: string;
  readonly templateId: string;
  readonly dataCenterId: string;
  readonly gpuId: string;
  readonly volumeId: string;
}

/** The created pod's id; null when the answer is not an object with one. */
const createdPodId = z
  .object({ id: nonBlankText })
  .transform((pod) => pod.id)
  .catch(null);

/** The POST /pods body: secure cloud, one GPU, our volume at /workspace; the template supplies the image. */
export function createPodBody(req: CreatePodRequest): string {
  return JSON.stringify({
    name: req.name,
    templateId: req.templateId,
    cloud: 'SECURE',
    dataCenterIds: [req.dataCenterId],
    gpu: { id: req.gpuId, count: 1 },
    mounts: { network: [{ volumeId: req.volumeId, path: '/workspace' }] },
  });
}

/**
 * The raw answer, for the create-outcome policy to classify. A transport
 * failure is status 0: a create that timed out may still have placed a pod,
 * so it must never be read as a clean refusal and retried blind.
 */
export function createResultFromOutcome(outcome: ExchangeOutcome, nowMs: number): CreatePodResult {
  if (outcome.kind === 'failed') {
    return { httpStatus: 0, podId: null, retryAfterSeconds: null, detail: outcome.reason };
  }
  const parsed = parseJson(outcome.body);
  const body = parsed.ok ? parsed.value : undefined;
  const succeeded = outcome.status >= 200 && outcome.status < 300;
  const podId = succeeded ? createdPodId.parse(body) : null;
  const retryAfterSeconds =
    outcome.status === 429 || outcome.status === 503
      ? parseRetryAfterSeconds(outcome.headers['retry-after'], outcome.headers['date'], nowMs)
      : null;
  const detail = succeeded ? (podId === null ? 'no pod id in the response' : null) : problemText(body);
  return { httpStatus: outcome.status, podId, retryAfterSeconds, detail };
}
