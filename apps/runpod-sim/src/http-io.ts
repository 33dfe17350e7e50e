import { IncomingMessage, ServerResponse, STATUS_CODES } from 'node:http';

/**
 * Responses are built as values first and written last, so a fault can
 * reshape an answer (truncate it, strip its id) after the route produced it.
 */
export interface SimResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The JSON value behind `body`, when it is JSON. */
  readonly json: unknown;
  /** Set for a streamed answer (server-sent events): `body` is empty and the chunks come from here over time. */
  readonly stream?: SimStream;
}

/** Where a streamed answer writes; `closed` turns true once the client went away. */
export interface StreamSink {
  write(text: string): void;
  readonly closed: boolean;
}

export type SimStream = (sink: StreamSink) => Promise<void>;

export function jsonResponse(
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): SimResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(value),
    json: value,
  };
}

/** RunPod's error shape: application/problem+json `{ title, status, detail }`. */
export function problemResponse(
  status: number,
  detail: string,
  headers: Record<string, string> = {},
  title: string = STATUS_CODES[status] ?? 'Error',
): SimResponse {
  const value = { title, status, detail };
  return {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
    body: JSON.stringify(value),
    json: value,
  };
}

export function textResponse(status: number, contentType: string, body: string): SimResponse {
  return { status, headers: { 'content-type': contentType }, body, json: undefined };
}

export function emptyResponse(status: number): SimResponse {
  return { status, headers: {}, body: '', json: undefined };
}

export function writeResponse(res: ServerResponse, response: SimResponse): void {
  if (res.headersSent || res.destroyed) return;
  if (response.stream !== undefined) {
    writeStream(res, response, response.stream);
    return;
  }
  const headers: Record<string, string | number> = { ...response.headers };
  if (response.status !== 204 && response.status !== 304) {
    headers['content-length'] = Buffer.byteLength(response.body);
  }
  res.writeHead(response.status, headers);
  res.end(response.status === 204 || response.status === 304 ? undefined : response.body);
}

/** Headers at once (no content-length: chunked), then every chunk as soon as the stream produces it. */
function writeStream(res: ServerResponse, response: SimResponse, stream: SimStream): void {
  res.writeHead(response.status, { ...response.headers });
  res.flushHeaders();
  const sink: StreamSink = {
    write: (text) => {
      if (!res.destroyed && !res.writableEnded) res.write(text);
    },
    get closed() {
      return res.destroyed || res.writableEnded;
    },
  };
  stream(sink).then(
    () => res.end(),
    () => res.destroy(),
  );
}

export type BodyRead =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly status: number };

/** Reads the whole request body as UTF-8, refusing bodies over `limitBytes`. */
export function readBody(req: IncomingMessage, limitBytes: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyRead): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        settle({ ok: false, status: 413 });
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => settle({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', () => settle({ ok: false, status: 400 }));
  });
}

export type ParsedBody =
  | { readonly kind: 'empty' }
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'invalid'; readonly text: string };

export function parseBody(text: string): ParsedBody {
  if (text.trim() === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'invalid', text };
  }
}

/** What the call log keeps of a body: the parsed value, a bounded raw text, or null. */
export function bodyForLog(body: ParsedBody): unknown {
  switch (body.kind) {
    case 'empty':
      return null;
    case 'json':
      return body.value;
    case 'invalid':
      return body.text.slice(0, 2000);
  }
}

export function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  if (Array.isArray(value)) return value[0] ?? null;
  return value ?? null;
}

/** A percent-decoded path segment; null when empty or badly encoded. */
export function decodeSegment(segment: string): string | null {
  try {
    const decoded = decodeURIComponent(segment);
    return decoded === '' ? null : decoded;
  } catch {
    return null;
  }
}
