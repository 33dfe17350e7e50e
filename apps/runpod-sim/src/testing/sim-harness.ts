import { RunningSimulator, SimOptions, startSimulator } from '../simulator';

/**
 * Test support: a simulator on a free port driven over real HTTP with Node's
 * fetch, on a controllable clock. Specs see the simulator only from outside.
 */
export class FakeClock {
  constructor(public ms: number = Date.parse('2026-11-30T10:00:00Z')) {}

  readonly now = (): number => this.ms;

  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface HttpResult {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** Parsed body, undefined when it is not JSON. */
  readonly json: unknown;
}

/** The wire pod as a test reads it. */
export interface WirePod {
  readonly id?: string;
  readonly name: string;
  readonly status: string;
  readonly createdAt: string;
  readonly costPerHr: number;
  readonly gpu: { readonly id: string; readonly count: number };
  readonly runtime: null | {
    readonly uptime?: number;
    readonly uptimeInSeconds?: number;
    readonly gpus?: readonly { readonly id: string }[];
    readonly ports?: readonly unknown[];
  };
  readonly mounts: { readonly network: readonly { readonly volumeId: string; readonly path: string }[] };
  readonly dataCenterId: string;
  readonly templateId: string;
}

export interface Problem {
  readonly title: string;
  readonly status: number;
  readonly detail: string;
}

export const VALID_CREATE_BODY = {
  name: 'podwarden-qwen-20261130T100000Z',
  templateId: 'tpl-vllm-qwen',
  cloud: 'SECURE',
  dataCenterIds: ['EU-RO-1'],
  gpu: { id: 'NVIDIA RTX A6000', count: 1 },
  mounts: { network: [{ volumeId: 'vol-eu-ro-1', path: '/workspace' }] },
} as const;

/** Short timings for lifecycle specs: boot ends at 60 ms, serving at 120 ms (fake clock). */
export const SHORT_TIMINGS = {
  provisioningMs: 30,
  startingMs: 30,
  gpuAttachMs: 10,
  modelLoadMs: 50,
  chatMs: 100,
  terminateMs: 0,
} as const;

export class SimHarness {
  private constructor(
    readonly sim: RunningSimulator,
    readonly clock: FakeClock,
    private readonly apiKey: string | null,
  ) {}

  /** Starts on port 0 with the fake clock unless `now` is given. */
  static async start(options: Partial<SimOptions> = {}): Promise<SimHarness> {
    const clock = new FakeClock();
    const sim = await startSimulator({ port: 0, now: clock.now, ...options });
    return new SimHarness(sim, clock, options.apiKey ?? null);
  }

  /** A control-plane call, with the configured bearer unless `headers` says otherwise. */
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResult> {
    const auth: Record<string, string> =
      this.apiKey === null ? {} : { authorization: `Bearer ${this.apiKey}` };
    return send(`${this.sim.baseUrl}${path}`, method, body, headers ?? auth);
  }

  admin(method: string, path: string, body?: unknown): Promise<HttpResult> {
    return send(`${this.sim.adminUrl}${path}`, method, body, {});
  }

  proxy(
    podId: string,
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string>; port?: number } = {},
  ): Promise<HttpResult> {
    const base = this.sim.proxyUrlTemplate
      .replace('{podId}', podId)
      .replace('{port}', String(init.port ?? 8000));
    return send(`${base}${path}`, init.method ?? 'GET', init.body, init.headers ?? {});
  }

  async createPod(overrides: Record<string, unknown> = {}): Promise<WirePod & { id: string }> {
    const result = await this.api('POST', '/pods', { ...VALID_CREATE_BODY, ...overrides });
    if (result.status !== 201) throw new Error(`create failed: ${result.status} ${result.text}`);
    return result.json as WirePod & { id: string };
  }

  async observe(podId: string): Promise<WirePod> {
    const result = await this.api('GET', `/pods/${podId}`);
    if (result.status !== 200) throw new Error(`observe failed: ${result.status} ${result.text}`);
    return result.json as WirePod;
  }

  async listIds(): Promise<string[]> {
    const result = await this.api('GET', '/pods');
    return (result.json as WirePod[]).map((pod) => pod.id ?? '');
  }

  close(): Promise<void> {
    return this.sim.close();
  }
}

export async function send(
  url: string,
  method: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<HttpResult> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const response = await fetch(url, init);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Minimal Prometheus text reading for specs: sample name + labels → value. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      types.set(name, type);
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[3] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1]] = pair[2];
    samples.push({ name: match[1], labels, value: Number(match[4]) });
  }
  return { samples, types };
}

export function sampleValue(
  samples: readonly Sample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  const found = samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length !== 1)
    throw new Error(`expected one ${name} ${JSON.stringify(labels)}, found ${found.length}`);
  return found[0].value;
}
