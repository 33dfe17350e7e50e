import { OpenApiAnswers, type OpenApiDocument } from '@podwarden/testing';
import { AppProcess, eventually, type AppName } from './app-process';
import { freePort } from './free-port';
import { SseClient } from './sse-client';
import { deletePrefix } from './redis-cleanup';
import { recordExchange } from './exchange-log';
import {
  REDIS_URL,
  TEST_API_KEY,
  TEST_INFERENCE_TOKEN,
  TEST_OPERATOR_TOKEN,
  TEST_WAKE_TOKEN,
  uniquePrefix,
} from './test-env';

/**
 * How long an app may take to come up. Generous on purpose: on a loaded 2-core
 * machine a NestJS app has been seen to need more than 20 s, and a deadline is
 * only a bound on a hang, never a measure of speed.
 */
const APP_START_DEADLINE_MS = 60_000;

export const VOLUME_ID = 'vol-eu-ro-1';
export const TEMPLATE_ID = 'tpl-vllm-qwen';

export interface StackOptions {
  /** Short name for the Redis prefix and log files. */
  readonly name: string;
  readonly gateway?: boolean;
  readonly wakers?: number;
  readonly idleMonitors?: number;
  /** Extra env for every podwarden app (overrides the defaults below). */
  readonly env?: Record<string, string>;
  /** Extra env for the simulator (SIM_* variables). */
  readonly simEnv?: Record<string, string>;
  /** Per app: extra env and node arguments (a test preload such as a skewed clock) for every process of it. */
  readonly perApp?: Partial<Record<AppName, AppLaunch>>;
  /** Which health route boot waits for: 'live' for a gateway meant to run without Redis. Default 'ready'. */
  readonly gatewayUp?: 'ready' | 'live';
}

/** How one app is launched beyond the shared env: see skewedClock() in clock-skew.ts. */
export interface AppLaunch {
  readonly env?: Record<string, string>;
  readonly nodeArgs?: readonly string[];
}

export interface HttpAnswer<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
  readonly contentType: string;
  readonly text: string;
}

/**
 * The system under test as real processes: the simulator, the gateway,
 * N wakers and M idle monitors, all on one Redis under a prefix of their own.
 */
export class Stack {
  readonly wakers: AppProcess[] = [];
  readonly idleMonitors: AppProcess[] = [];
  /** Inference proxies started with startProxy(), and their base URLs in the same order. */
  readonly proxies: AppProcess[] = [];
  readonly proxyUrls: string[] = [];
  gateway: AppProcess | null = null;
  sim!: AppProcess;
  simUrl = '';
  gatewayUrl = '';
  readonly prefix: string;
  env: Record<string, string> = {};
  /** The gateway's OpenAPI document (fetched on the first api() call); every api() answer must match it. */
  openApi: OpenApiAnswers | null = null;

  private constructor(private readonly options: StackOptions) {
    this.prefix = uniquePrefix(options.name);
  }

  static async start(options: StackOptions): Promise<Stack> {
    const stack = new Stack(options);
    try {
      await stack.boot();
    } catch (error) {
      await stack.stop();
      throw error;
    }
    return stack;
  }

  private async boot(): Promise<void> {
    const simPort = await freePort();
    this.simUrl = `http://127.0.0.1:${simPort}`;
    this.sim = AppProcess.start(
      'runpod-sim',
      {
        SIM_PORT: String(simPort),
        SIM_HOST: '127.0.0.1',
        SIM_API_KEY: TEST_API_KEY,
        ...(this.options.simEnv ?? {}),
      },
      `${this.options.name}-sim`,
    );
    await eventually(
      async () => ((await fetch(`${this.simUrl}/_sim/health`)).ok ? true : undefined),
      APP_START_DEADLINE_MS,
      'simulator up',
    );

    const gatewayPort = await freePort();
    this.gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    this.env = {
      REDIS_URL,
      QUEUE_PREFIX: this.prefix,
      RUNPOD_API_KEY: TEST_API_KEY,
      RUNPOD_V2_BASE_URL: `${this.simUrl}/v2`,
      RUNPOD_PROXY_URL_TEMPLATE: `${this.simUrl}/proxy/{podId}-{port}`,
      RUNPOD_VOLUME_ID: VOLUME_ID,
      RUNPOD_TEMPLATE_ID: TEMPLATE_ID,
      RUNPOD_DATACENTER_ID: 'EU-RO-1',
      RIG_OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
      RIG_WAKE_TOKEN: TEST_WAKE_TOKEN,
      RIG_INFERENCE_TOKEN: TEST_INFERENCE_TOKEN,
      PORT: String(gatewayPort),
      HOST: '127.0.0.1',
      WAKE_POLL_INTERVAL_MS: '100',
      WAKE_MAX_POLLS: '100',
      WAKE_REQUEST_WAIT_SECONDS: '20',
      WAKE_MAX_RETRY_AFTER_SECONDS: '1',
      LOG_LEVEL: 'debug',
      ...(this.options.env ?? {}),
    };
    const waits: Promise<unknown>[] = [];
    for (let i = 0; i < (this.options.wakers ?? 0); i++) waits.push(this.startWaker());
    for (let i = 0; i < (this.options.idleMonitors ?? 0); i++) waits.push(this.startIdleMonitor());
    if (this.options.gateway ?? true) waits.push(this.startGateway('gateway'));
    await Promise.all(waits);
  }

  private async startGateway(label: string): Promise<void> {
    this.gateway = this.launch('gateway', {}, `${this.options.name}-${label}`);
    await eventually(
      async () =>
        (await fetch(`${this.gatewayUrl}/health/${this.options.gatewayUp ?? 'ready'}`)).ok ? true : undefined,
      APP_START_DEADLINE_MS,
      `${label} up`,
    );
  }

  /** A new gateway process on the same port and env (after the first one was killed). */
  restartGateway(): Promise<void> {
    return this.startGateway('gateway-again');
  }

  async startWaker(extraEnv: Record<string, string> = {}): Promise<AppProcess> {
    const waker = this.launch('waker', extraEnv, `${this.options.name}-waker${this.wakers.length}`);
    this.wakers.push(waker);
    await waker.waitForMessage('waker consuming wake jobs', APP_START_DEADLINE_MS);
    return waker;
  }

  async startIdleMonitor(extraEnv: Record<string, string> = {}): Promise<AppProcess> {
    const monitor = this.launch(
      'idle-monitor',
      extraEnv,
      `${this.options.name}-idle${this.idleMonitors.length}`,
    );
    this.idleMonitors.push(monitor);
    await monitor.waitForMessage('idle monitor ticking', APP_START_DEADLINE_MS);
    return monitor;
  }

  async startProxy(extraEnv: Record<string, string> = {}): Promise<string> {
    const port = await freePort();
    const proxy = this.launch(
      'inference-proxy',
      { PROXY_PORT: String(port), ...extraEnv },
      `${this.options.name}-proxy${this.proxies.length}`,
    );
    this.proxies.push(proxy);
    const url = `http://127.0.0.1:${port}`;
    this.proxyUrls.push(url);
    await eventually(
      async () => ((await fetch(`${url}/health/ready`).catch(() => null))?.ok ? true : undefined),
      APP_START_DEADLINE_MS,
      'inference proxy up',
    );
    return url;
  }

  /** The shared env, then the app's own launch options, then the caller's extra env. */
  private launch(app: AppName, extraEnv: Record<string, string>, label: string): AppProcess {
    const own = this.options.perApp?.[app] ?? {};
    return AppProcess.start(app, { ...this.env, ...(own.env ?? {}), ...extraEnv }, label, own.nodeArgs);
  }

  async stop(): Promise<void> {
    const all = [this.gateway, ...this.wakers, ...this.idleMonitors, ...this.proxies].filter(
      (p): p is AppProcess => p !== null,
    );
    await Promise.all(all.map((p) => p.stop()));
    if (this.sim) await this.sim.stop();
    await deletePrefix(this.prefix).catch(() => undefined);
  }

  /** A request to the gateway; `token` 'operator' | 'wake' | none. */
  async api<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: { token?: 'operator' | 'wake' | string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<HttpAnswer<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token === 'operator') headers['X-Rig-Operator-Token'] = TEST_OPERATOR_TOKEN;
    else if (options.token === 'wake') headers['X-Rig-Operator-Token'] = TEST_WAKE_TOKEN;
    else if (options.token) headers['X-Rig-Operator-Token'] = options.token;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${this.gatewayUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const seen = await answer<T>(response, `${method} ${path}`);
    await this.checkAgainstDocument(method, path, seen);
    return seen;
  }

  /** Opens GET …/events on this gateway (or another replica's `baseUrl`); its opening answer is checked like api()'s. */
  async eventStream(
    path: string,
    lastEventId: string | null = null,
    baseUrl = this.gatewayUrl,
  ): Promise<SseClient> {
    const client = await SseClient.open(`${baseUrl}${path}`, lastEventId);
    await this.checkAgainstDocument('GET', path, { ...client.opening, body: null, text: '' });
    return client;
  }

  /** Fails the calling test when a gateway answer does not match the gateway's own /docs-json. */
  private async checkAgainstDocument(method: string, path: string, seen: HttpAnswer<unknown>): Promise<void> {
    if (this.openApi === null) {
      const document: unknown = await (await fetch(`${this.gatewayUrl}/docs-json`)).json();
      this.openApi = new OpenApiAnswers(document as OpenApiDocument);
    }
    const mismatches = this.openApi.check({ method, path, ...seen });
    if (mismatches.length > 0) throw new Error(`answer does not match /docs-json:\n${mismatches.join('\n')}`);
  }

  /** A request to the simulator's admin API (/_sim...) or its REST/proxy routes. */
  async simRequest<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<HttpAnswer<T>> {
    const response = await fetch(`${this.simUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return answer<T>(response, `${method} sim${path}`);
  }
}

async function answer<T>(response: Response, request: string): Promise<HttpAnswer<T>> {
  const text = await response.text();
  recordExchange(request, response.status, response.headers, text);
  let body: unknown;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    body = text;
  }
  return {
    status: response.status,
    body: body as T,
    contentType: response.headers.get('content-type') ?? '',
    text,
  };
}

export type { AppName };
