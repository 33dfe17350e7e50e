import { request, type Dispatcher } from 'undici';
import type { ExchangeTimeouts } from './client-options';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface ExchangeRequest {
  readonly method: HttpMethod;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeouts: ExchangeTimeouts;
  readonly maxBodyBytes: number;
  readonly signal?: AbortSignal;
}

export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** One HTTP exchange as the shaping code sees it: a whole response, or why there is none. */
export type ExchangeOutcome =
  | {
      readonly kind: 'response';
      readonly status: number;
      readonly headers: ResponseHeaders;
      readonly body: string;
    }
  | { readonly kind: 'failed'; readonly reason: string };

const MAX_REASON_LENGTH = 120;
const UNDICI_TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * One request, its whole body read under a byte cap. Only the caller's cancellation throws; timeouts,
 * refusals and oversized bodies are `failed`. Our own deadline backs the dispatcher's, whatever is injected.
 */
export async function performExchange(
  dispatcher: Dispatcher,
  req: ExchangeRequest,
): Promise<ExchangeOutcome> {
  const callerSignal = req.signal;
  if (callerSignal?.aborted) {
    throw callerCancellation(callerSignal);
  }
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const armDeadline = (ms: number): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('deadline exceeded'));
    }, ms);
  };
  const forwardCallerAbort = (): void => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', forwardCallerAbort, { once: true });
  try {
    armDeadline(req.timeouts.connectMs + req.timeouts.headersMs);
    const response = await request(req.url, {
      dispatcher,
      method: req.method,
      headers: { ...req.headers },
      body: req.body,
      signal: controller.signal,
      headersTimeout: req.timeouts.headersMs,
      bodyTimeout: req.timeouts.bodyMs,
    });
    armDeadline(req.timeouts.bodyMs);
    const body = await readCappedBody(response.body, req.maxBodyBytes, response.headers['content-length']);
    if (body === null) {
      return { kind: 'failed', reason: `body over ${req.maxBodyBytes} bytes` };
    }
    return { kind: 'response', status: response.statusCode, headers: response.headers, body };
  } catch (error) {
    if (callerSignal?.aborted) {
      throw callerCancellation(callerSignal);
    }
    if (timedOut) {
      return { kind: 'failed', reason: 'timeout' };
    }
    return { kind: 'failed', reason: describeTransportError(error) };
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', forwardCallerAbort);
  }
}

/** null when the body is larger than the cap; reading stops there and the stream is destroyed. */
async function readCappedBody(
  body: Dispatcher.ResponseData['body'],
  maxBytes: number,
  contentLength: string | string[] | undefined,
): Promise<string | null> {
  const declared = typeof contentLength === 'string' ? Number(contentLength) : NaN;
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += bytes.length;
    if (size > maxBytes) {
      body.destroy();
      return null;
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The caller's own reason when it is an error (fetch semantics), else a plain AbortError. */
export function callerCancellation(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) {
    return reason;
  }
  const error = new Error('The operation was aborted');
  error.name = 'AbortError';
  return error;
}

function describeTransportError(error: unknown): string {
  if (!(error instanceof Error)) {
    return 'transport error';
  }
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && UNDICI_TIMEOUT_CODES.has(code)) {
    return 'timeout';
  }
  const label = typeof code === 'string' && code !== '' ? code : error.message || error.name;
  return `transport error: ${label}`.slice(0, MAX_REASON_LENGTH);
}
