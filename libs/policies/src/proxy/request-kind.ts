/**
 * What a request through the inference proxy asks of the pod:
 * - `model-work`: the model runs for it (a completion, an embedding, a rerank…):
 *   it wakes a cold pod and counts as activity while forwarded;
 * - `model-list`: `GET /v1/models`, answered while cold from the last list the pod served;
 * - `metadata`: any other read (or a POST that runs no model): never wakes, never counts.
 */
export type ProxyRequestKind = 'model-work' | 'model-list' | 'metadata';

/**
 * POST routes that answer without running the model: the tokenizer, the
 * model list, LoRA adapter loading (lost with the process, so waking a pod
 * for it is pointless) and cancelling a response (nothing runs on a cold pod).
 */
const NON_WORK_POSTS: readonly RegExp[] = [
  /^\/v1\/(tokenize|detokenize)$/,
  /^\/v1\/models$/,
  /^\/v1\/(load|unload)_lora_adapter$/,
  /^\/v1\/responses\/[^/]+\/cancel$/,
];

/**
 * Decides by method and path (`/v1/…` with its query string, as the client sent
 * it). Paths compare case-insensitively without the query string or trailing
 * slashes. Only POST can make the model work: every OpenAI and vLLM route that
 * runs it is a POST, and every other method reads or administers. A POST to a
 * path not known to run no model wakes the pod: an unfamiliar server's own
 * inference route must not be refused (fail closed on the request, not on money).
 */
export function classifyProxyRequest(method: string, path: string): ProxyRequestKind {
  const route = normalisedRoute(path);
  const verb = method.toUpperCase();
  if (verb === 'POST') return NON_WORK_POSTS.some((known) => known.test(route)) ? 'metadata' : 'model-work';
  return verb === 'GET' && route === '/v1/models' ? 'model-list' : 'metadata';
}

function normalisedRoute(path: string): string {
  const cut = path.search(/[?#]/);
  const bare = (cut < 0 ? path : path.slice(0, cut)).toLowerCase();
  const trimmed = bare.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}
