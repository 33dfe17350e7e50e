import { jsonResponse, problemResponse, SimResponse, textResponse } from './http-io';
import type { FaultSpec } from './fault-injector';
import { isRecord } from './json-reader';

/** The answers an injected fault puts on the wire (see fault-injector.ts for when). */
export function statusFault(status: number, retryAfter: string | null, body: unknown): SimResponse {
  const headers: Record<string, string> = retryAfter === null ? {} : { 'retry-after': retryAfter };
  if (body === undefined) return problemResponse(status, 'injected fault', headers);
  if (typeof body === 'string') {
    return {
      ...textResponse(status, 'text/plain; charset=utf-8', body),
      headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
    };
  }
  const contentType = status >= 400 ? 'application/problem+json' : 'application/json';
  return jsonResponse(status, body, { 'content-type': contentType, ...headers });
}

/** The faults both planes answer alike, without doing the request: an injected status, a 500, a bare 404. */
export type PlainFault = Extract<FaultSpec, { kind: 'status' | 'unreadable' | 'bare-404' }>;

export function plainFault(fault: PlainFault): SimResponse {
  if (fault.kind === 'status') return statusFault(fault.status, fault.retryAfter, fault.body);
  return fault.kind === 'unreadable' ? unreadableFault() : bareNotFound();
}

export function unreadableFault(): SimResponse {
  return problemResponse(500, 'injected fault: internal error');
}

/** A 404 that is not RunPod's problem JSON: what a wrong base URL or an intermediary answers. */
export function bareNotFound(): SimResponse {
  return textResponse(404, 'text/html; charset=utf-8', '<html><body><h1>404 Not Found</h1></body></html>');
}

/** A 2xx whose body claims JSON but is cut short — the request itself took effect. */
export function truncatedJson(response: SimResponse): SimResponse {
  const ok = response.status >= 200 && response.status < 300 && response.status !== 204;
  const cut =
    response.body.length > 2 ? response.body.slice(0, Math.floor(response.body.length / 2)) : '{"id": "';
  return {
    status: ok ? response.status : 200,
    headers: { 'content-type': 'application/json' },
    body: cut,
    json: undefined,
  };
}

/** The answer with every pod object's `id` removed (e.g. a 2xx create without an id). */
export function withoutIds(response: SimResponse): SimResponse {
  if (response.status < 200 || response.status >= 300) return response;
  const strip = (value: unknown): unknown => {
    if (!isRecord(value)) return value;
    const { id: _id, ...rest } = value;
    return rest;
  };
  const json = response.json;
  let stripped: unknown;
  if (Array.isArray(json)) stripped = json.map(strip);
  else if (isRecord(json) && Array.isArray(json.pods)) stripped = { ...json, pods: json.pods.map(strip) };
  else stripped = strip(json);
  return jsonResponse(response.status, stripped);
}
