import { request } from 'undici';
import type { GatewayAnswer } from './gateway-answer';
import type { GatewaySettings } from './gateway-settings';

export const TOKEN_HEADER = 'X-Rig-Operator-Token';
const REQUESTED_BY = 'podwarden-cli';

/** How long one request may take before it counts as a transient failure. */
export const READ_TIMEOUT_MS = 15_000;
// POST …/start waits on the gateway for the wake (WAKE_REQUEST_WAIT_SECONDS, 25 s by default).
export const START_TIMEOUT_MS = 90_000;
// An event stream is quiet between events; past this without a byte (not even a heartbeat) it is reopened.
export const STREAM_IDLE_TIMEOUT_MS = 120_000;

export interface RequestOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** An event stream that answered text/event-stream, or whatever else came back instead. */
export type StreamOpening =
  | { readonly kind: 'stream'; readonly chunks: AsyncIterable<string>; close(): void }
  | { readonly kind: 'answer'; readonly answer: GatewayAnswer };

/**
 * The gateway's REST API over undici. Transport only: every outcome is a
 * GatewayAnswer (an HTTP answer or a network failure); what it means is
 * decided elsewhere. An abort through `signal` is rethrown for the caller.
 */
export class GatewayClient {
  constructor(private readonly settings: GatewaySettings) {}

  get(path: string, options: RequestOptions = {}): Promise<GatewayAnswer> {
    return this.send('GET', path, undefined, options);
  }

  post(path: string, body: unknown, options: RequestOptions = {}): Promise<GatewayAnswer> {
    return this.send('POST', path, body, options);
  }

  async openStream(path: string, lastEventId: string | null, signal: AbortSignal): Promise<StreamOpening> {
    const headers = this.headers({ accept: 'text/event-stream' });
    if (lastEventId !== null) headers['last-event-id'] = lastEventId;
    try {
      const response = await request(this.url(path), {
        method: 'GET',
        headers,
        signal,
        headersTimeout: READ_TIMEOUT_MS,
        bodyTimeout: STREAM_IDLE_TIMEOUT_MS,
      });
      const contentType = String(response.headers['content-type'] ?? '');
      if (response.statusCode === 200 && contentType.startsWith('text/event-stream')) {
        return { kind: 'stream', chunks: decode(response.body), close: () => response.body.destroy() };
      }
      const text = await response.body.text();
      return { kind: 'answer', answer: answerOf(response.statusCode, contentType, text) };
    } catch (error) {
      if (signal.aborted) throw error;
      return { kind: 'answer', answer: { kind: 'network', reason: describeFailure(error) } };
    }
  }

  private async send(
    method: string,
    path: string,
    body: unknown,
    options: RequestOptions,
  ): Promise<GatewayAnswer> {
    const timeout = options.timeoutMs ?? READ_TIMEOUT_MS;
    const headers = this.headers(body === undefined ? {} : { 'content-type': 'application/json' });
    try {
      const response = await request(this.url(path), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: options.signal,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      const text = await response.body.text();
      return answerOf(response.statusCode, String(response.headers['content-type'] ?? ''), text);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      return { kind: 'network', reason: describeFailure(error) };
    }
  }

  private url(path: string): URL {
    return new URL(path.replace(/^\//, ''), this.settings.baseUrl);
  }

  private headers(extra: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { 'x-requested-by': REQUESTED_BY, ...extra };
    if (this.settings.token !== null) headers[TOKEN_HEADER.toLowerCase()] = this.settings.token;
    return headers;
  }
}

/** The path of a pod's route; the name is encoded, so no name can reach another route. */
export function podPath(name: string, suffix = ''): string {
  return `/api/pods/${encodeURIComponent(name)}${suffix}`;
}

function answerOf(status: number, contentType: string, text: string): GatewayAnswer {
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { kind: 'http', status, contentType, body };
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code)
    ? `${code}: ${error.message}`
    : error.message;
}

async function* decode(body: AsyncIterable<Buffer>): AsyncIterable<string> {
  const decoder = new TextDecoder();
  for await (const chunk of body) yield decoder.decode(chunk, { stream: true });
}
