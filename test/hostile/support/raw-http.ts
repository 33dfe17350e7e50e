import { connect } from 'node:net';
import { recordExchange } from '../../support/exchange-log';

export interface RawAnswer {
  /** 0 when the server closed the connection without an HTTP answer. */
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface RawRequest {
  readonly method: string;
  /** Sent byte for byte (as UTF-8): no normalisation, no encoding, NUL and `..` included. */
  readonly target: string;
  readonly headers?: ReadonlyArray<readonly [string, string]>;
  readonly body?: string | Buffer;
}

/**
 * One HTTP/1.1 exchange over a bare socket, so a spec can send what fetch and
 * node:http refuse to (raw NUL, unencoded unicode, dot segments, thousands of
 * headers). The answer is recorded for the secret check like every other.
 */
export function rawRequest(baseUrl: string, req: RawRequest, timeoutMs = 20_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const body = req.body === undefined ? Buffer.alloc(0) : Buffer.from(req.body);
  const lines = [`${req.method} ${req.target} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close'];
  for (const [name, value] of req.headers ?? []) lines.push(`${name}: ${value}`);
  if (req.body !== undefined) lines.push(`Content-Length: ${body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${req.method} ${req.target.slice(0, 80)}`));
    }, timeoutMs);
    socket.on('connect', () => {
      socket.write(head);
      socket.write(body);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A server may answer and close before it has read everything we sent.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const answer = parseAnswer(Buffer.concat(chunks).toString('latin1'));
      recordExchange(`${req.method} ${req.target.slice(0, 200)}`, answer.status, answer.headers, answer.body);
      resolve(answer);
    });
  });
}

function parseAnswer(text: string): RawAnswer {
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  let body = split < 0 ? '' : text.slice(split + 4);
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  if (headers['transfer-encoding'] === 'chunked') body = unchunk(body);
  // Parsed as latin1 so chunk sizes count bytes; the body itself is UTF-8.
  return { status, headers, body: Buffer.from(body, 'latin1').toString('utf8') };
}

function unchunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const newline = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, newline), 16);
    if (!(size > 0)) return out;
    out += rest.slice(newline + 2, newline + 2 + size);
    rest = rest.slice(newline + 2 + size + 2);
  }
}
