/**
 * What a proxied request asks of the pod: `model-work` runs the model (wakes a cold pod, counts as activity
 * while forwarded); `model-list` is `GET /v1/models`, answered cold from the last list served; `metadata`
 * is any other read or a POST that runs no model: never wakes, never counts.
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
 * Decides by method and path (as the client sent it, query string included). Only a POST runs the model;
 * a POST not known to run no model wakes the pod, so an unfamiliar server's inference route is never
 * refused (fail closed on the request, not on money).
 */
export function classifyProxyRequest(method: string, path: string): ProxyRequestKind {
  const route = normalisedRoute(path);
  const verb = method.toUpperCase();
  if (verb === 'POST') return NON_WORK_POSTS.some((known) => known.test(route)) ? 'metadata' : 'model-work';
  return verb === 'GET' && route === '/v1/models' ? 'model-list' : 'metadata';
}

/** The path without its query or fragment, lower-cased, without trailing slashes (the root is ''). */
function normalisedRoute(path: string): string {
  return path.split(/[?#]/, 1)[0].toLowerCase().replace(/\/+$/, '');
}
