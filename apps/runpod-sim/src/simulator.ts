import { once } from 'node:events';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { AdminRoutes } from './admin-routes';
import { CallLog } from './call-log';
import { ControlPlaneRoutes } from './control-plane-routes';
import { DEFAULT_SCENARIO } from './default-scenario';
import { FaultInjector } from './fault-injector';
import { parseBody, problemResponse, readBody, SimResponse, writeResponse } from './http-io';
import { ProxyRoutes } from './proxy-routes';
import {
  CatalogGpuInput,
  ListOrder,
  PodSeedInput,
  parseScenarioPatch,
  Scenario,
  SCENARIO_FIELDS,
  SimTemplateInput,
  SimVolumeInput,
  Timings,
  VllmSettings,
  WireVariants,
} from './scenario';
import { SimClock } from './sim-clock';
import { SimWorld } from './sim-state';
import { TimerRegistry } from './timer-registry';

/**
 * The programmatic entry: one node:http server answering RunPod REST v2 under
 * /v2, the pod proxy under /proxy/{podId}-{port}, and the admin surface under
 * /_sim. Port 0 picks a free port. close() clears every timer and connection.
 */
export interface SimOptions {
  readonly port: number;
  readonly host: string;
  /** When set, /v2 requires `Authorization: Bearer <apiKey>`; the proxy never does. */
  readonly apiKey: string | null;
  /** Wall clock in epoch ms; inject a controllable one for deterministic tests. */
  readonly now: () => number;
  /** A full scenario (e.g. parsed from SIM_SCENARIO); the fields below patch it. Default: the built-in one. */
  readonly scenario: Scenario;
  readonly speed: number;
  readonly listOrder: ListOrder;
  readonly seed: number;
  readonly balance: number;
  readonly insufficientBalanceHours: number;
  readonly timings: Partial<Timings>;
  readonly wire: Partial<WireVariants>;
  readonly vllm: Partial<VllmSettings>;
  readonly catalog: readonly CatalogGpuInput[];
  readonly volumes: readonly SimVolumeInput[];
  readonly templates: readonly SimTemplateInput[];
  readonly pods: readonly PodSeedInput[];
}

export interface RunningSimulator {
  readonly port: number;
  /** http://HOST:PORT/v2 — what RUNPOD_V2_BASE_URL should be. */
  readonly baseUrl: string;
  /** http://HOST:PORT/proxy/{podId}-{port} — what RUNPOD_PROXY_URL_TEMPLATE should be. */
  readonly proxyUrlTemplate: string;
  /** http://HOST:PORT/_sim */
  readonly adminUrl: string;
  close(): Promise<void>;
}

const BODY_LIMIT_BYTES = 1024 * 1024;

export async function startSimulator(options: Partial<SimOptions> = {}): Promise<RunningSimulator> {
  const scenario = resolveScenario(options);
  const clock = new SimClock(options.now ?? (() => Date.now()), scenario.speed);
  const world = new SimWorld(clock, scenario);
  const reset = world.reset(scenario);
  if (!reset.ok) throw new Error(`invalid scenario: ${reset.error}`);

  const apiKey =
    options.apiKey === undefined || options.apiKey === null || options.apiKey.trim() === ''
      ? null
      : options.apiKey;
  const faults = new FaultInjector();
  const calls = new CallLog();
  const timers = new TimerRegistry();
  const controlPlane = new ControlPlaneRoutes(world, faults, calls, timers, apiKey);
  const proxy = new ProxyRoutes(world, faults, calls, timers);
  const admin = new AdminRoutes(world, faults, calls, scenario, apiKey !== null);

  const route = async (req: IncomingMessage): Promise<SimResponse> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const { pathname, query } = splitUrl(req.url ?? '/');
    const read = await readBody(req, BODY_LIMIT_BYTES);
    if (!read.ok)
      return problemResponse(read.status, 'request body could not be read (too large or aborted)');
    const body = parseBody(read.text);
    if (pathname === '/v2' || pathname.startsWith('/v2/')) {
      return controlPlane.handle({ req, method, path: pathname.slice(3) || '/', query, body });
    }
    if (pathname.startsWith('/proxy/')) {
      return proxy.handle({ req, method, rest: pathname.slice('/proxy/'.length), body });
    }
    if (pathname === '/_sim' || pathname.startsWith('/_sim/')) {
      return admin.handle({ method, path: pathname.slice('/_sim'.length), query, body });
    }
    return problemResponse(404, `no route ${method} ${pathname}; RunPod REST v2 lives under /v2`);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    route(req)
      .then((response) => writeResponse(res, response))
      .catch((error: unknown) => {
        // Never crash on odd input: answer 500 and keep serving.
        writeResponse(
          res,
          problemResponse(500, `simulator error: ${error instanceof Error ? error.message : 'unknown'}`),
        );
      });
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
  });
  await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');

  const port = (server.address() as AddressInfo).port;
  const origin = `http://${urlHost(options.host ?? '127.0.0.1')}:${port}`;
  return {
    port,
    baseUrl: `${origin}/v2`,
    proxyUrlTemplate: `${origin}/proxy/{podId}-{port}`,
    adminUrl: `${origin}/_sim`,
    close: async () => {
      timers.clearAll();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** The scenario fields of the options, read over `options.scenario` (or the default) with full validation. */
function resolveScenario(options: Partial<SimOptions>): Scenario {
  const patch: Record<string, unknown> = {};
  for (const field of SCENARIO_FIELDS) {
    if (options[field] !== undefined) patch[field] = options[field];
  }
  const parsed = parseScenarioPatch(patch, options.scenario ?? DEFAULT_SCENARIO, 'options');
  if (!parsed.ok) throw new Error(`invalid simulator options: ${parsed.error}`);
  return parsed.value;
}

/** Resolves once listening; rejects with the bind error (e.g. EADDRINUSE) — events.once rejects on 'error'. */
async function listen(server: Server, port: number, host: string): Promise<void> {
  const listening = once(server, 'listening');
  server.listen(port, host);
  await listening;
}

/** Split by hand: `new URL` would read a path starting with // as a host. */
function splitUrl(rawUrl: string): { pathname: string; query: URLSearchParams } {
  const q = rawUrl.indexOf('?');
  const pathname = q < 0 ? rawUrl : rawUrl.slice(0, q);
  return { pathname, query: new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1)) };
}

/** A wildcard bind is reached on loopback; IPv6 literals need brackets in a URL. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
