import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** How the front answers the requests its fault filter selects. */
export type Fault = 'none' | 'bad-gateway' | 'drop' | 'hang';

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly accept: string;
  readonly lastEventId: string | null;
  readonly token: string | null;
  readonly fault: Fault;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * What sits between the CLI and a gateway in these tests: a reverse proxy to
 * the real gateway that can answer 502, drop the connection or hang on
 * chosen requests, and routes a test scripts itself (an event stream the
 * gateway does not have yet, a status to decide on). Every request is logged.
 */
export class FrontGateway {
  readonly requests: SeenRequest[] = [];
  fault: Fault = 'none';
  faultWhen: (request: SeenRequest) => boolean = () => true;
  private readonly routes: Array<{ method: string; path: RegExp; handler: Handler }> = [];
  private readonly sockets = new Set<Socket>();
  private readonly streams = new Set<ServerResponse>();
  private server!: Server;
  url = '';

  private constructor(private readonly upstream: string | null) {}

  static async start(upstream: string | null): Promise<FrontGateway> {
    const front = new FrontGateway(upstream);
    front.server = createServer((request, response) => front.handle(request, response));
    front.server.on('connection', (socket) => {
      front.sockets.add(socket);
      socket.on('close', () => front.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => front.server.listen(0, '127.0.0.1', resolve));
    front.url = `http://127.0.0.1:${(front.server.address() as AddressInfo).port}`;
    return front;
  }

  /** Answers `method path` itself instead of forwarding. */
  route(method: string, path: RegExp, handler: Handler): void {
    this.routes.unshift({ method, path, handler });
  }

  /** Serves `path` as a text/event-stream; events go out with send(). */
  eventStream(path: RegExp): void {
    this.route('GET', path, (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.write(': connected\n\n');
      this.streams.add(response);
      response.on('close', () => this.streams.delete(response));
    });
  }

  get openStreams(): number {
    return this.streams.size;
  }

  send(id: string, event: string, data: unknown): void {
    for (const stream of this.streams)
      stream.write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Ends every open event stream, as a restarting gateway or a proxy timeout would. */
  dropStreams(): void {
    for (const stream of this.streams) stream.destroy();
    this.streams.clear();
  }

  seen(method: string, path: RegExp | string): SeenRequest[] {
    return this.requests.filter(
      (r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
    );
  }

  /** Every request so far, in arrival order. */
  all(): readonly SeenRequest[] {
    return this.requests;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const seen: SeenRequest = {
      method: request.method ?? '',
      path: request.url ?? '',
      accept: String(request.headers.accept ?? ''),
      lastEventId: (request.headers['last-event-id'] as string | undefined) ?? null,
      token: (request.headers['x-rig-operator-token'] as string | undefined) ?? null,
      fault: 'none',
    };
    const fault = this.faultWhen(seen) ? this.fault : 'none';
    this.requests.push({ ...seen, fault });
    if (fault === 'hang') return;
    if (fault === 'drop') return void request.socket.destroy();
    if (fault === 'bad-gateway') {
      response.writeHead(502, { 'content-type': 'text/html' });
      return void response.end('<html><body>502 Bad Gateway</body></html>');
    }
    const route = this.routes.find((r) => r.method === request.method && r.path.test(seen.path));
    if (route) return route.handler(request, response);
    this.forward(request, response);
  }

  private forward(request: IncomingMessage, response: ServerResponse): void {
    if (this.upstream === null) {
      response.writeHead(404, { 'content-type': 'application/problem+json' });
      return void response.end(
        JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'no route' }),
      );
    }
    const target = new URL(request.url ?? '/', this.upstream);
    const upstream = httpRequest(target, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  }
}

/** A JSON answer from a scripted route. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
  });
  response.end(JSON.stringify(body));
}
