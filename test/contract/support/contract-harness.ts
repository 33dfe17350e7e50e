import { RunPodClient, type CreatePodRequest, type RunPodClientOptions } from '@podwarden/runpod-client';
import { captureLogs, type CapturedLogs } from '@podwarden/testing';
import type { ControlPlaneCall, ProxyStats } from '../../../apps/runpod-sim/src/call-log';
import {
  startSimulator,
  type RunningSimulator,
  type SimOptions,
} from '../../../apps/runpod-sim/src/simulator';
import { ManualClock } from './manual-clock';

/**
 * The real RunPodClient against the real simulator, over real HTTP on a free
 * port. The simulator's clock is moved by hand (lifecycles are exact); its
 * admin API (/_sim) sets each case up and reports the calls the client made.
 */
export const CONTRACT_API_KEY = 'rpa_CONTRACT_9d2f71c4e8a34b6f0c1e_do-not-leak';
export const VOLUME_ID = 'vol-eu-ro-1';
export const OTHER_VOLUME_ID = 'vol-us-tx-3';
export const DATACENTER_ID = 'EU-RO-1';
export const TEMPLATE_ID = 'tpl-vllm-qwen';
export const POD_PORT = 8000;
/** Offered in EU-RO-1 with a secure price: the default scenario's one placeable GPU under a 1.00 cap. */
export const PLACEABLE_GPU = 'NVIDIA RTX A6000';

/** Every phase lasts one simulated second, so a boot's marks are round numbers. */
export const PHASE_TIMINGS = {
  provisioningMs: 1000,
  startingMs: 1000,
  gpuAttachMs: 1000,
  modelLoadMs: 1000,
  chatMs: 1000,
  terminateMs: 0,
} as const;

/** Offsets from a create: PROVISIONING, STARTING, RUNNING while the GPU attaches, model loading, serving. */
export const CREATE_MARKS = { starting: 1000, attaching: 2000, loading: 3000, serving: 4000 } as const;
/** Offsets from a start: STARTING first, then as a create one phase earlier. */
export const START_MARKS = { attaching: 1000, loading: 2000, serving: 3000 } as const;

/** The impatient client's budgets, and a delay fault that outlasts them with margin. */
export const IMPATIENT_TIMEOUTS = { connectMs: 300, headersMs: 200, bodyMs: 200 } as const;
export const PAST_TIMEOUT_MS = 800;

export type RecordedCall = ControlPlaneCall;
export type ProxyTraffic = ProxyStats;

export interface FaultRequest {
  readonly route: 'catalog' | 'list' | 'observe' | 'create' | 'action' | 'terminate' | 'metrics';
  readonly kind:
    | 'status'
    | 'delay'
    | 'malformed'
    | 'bare-404'
    | 'after-effect'
    | 'no-id'
    | 'unreadable'
    | 'no-volume'
    | 'other-gpu'
    | 'late-answer';
  readonly gpuId?: string;
  readonly listLagMs?: number;
  readonly podId?: string;
  readonly times?: number;
  readonly status?: number;
  readonly retryAfter?: string | number;
  readonly body?: unknown;
  readonly delayMs?: number;
}

export interface PodSeed {
  readonly status: 'PROVISIONING' | 'STARTING' | 'RUNNING' | 'EXITED' | 'ERROR' | 'TERMINATED';
  readonly id?: string;
  readonly name?: string;
  readonly volumeId?: string | null;
  readonly gpuId?: string;
  readonly gpuCount?: number;
  readonly createdAt?: string;
  readonly clusterId?: string;
  readonly vllmReady?: boolean;
  readonly behaviour?: string;
}

export interface WireAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly json: unknown;
}

export interface ChatUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

export function createRequest(overrides: Partial<CreatePodRequest> = {}): CreatePodRequest {
  return {
    name: 'podwarden-qwen-20261130T100000Z',
    templateId: TEMPLATE_ID,
    dataCenterId: DATACENTER_ID,
    gpuId: PLACEABLE_GPU,
    volumeId: VOLUME_ID,
    ...overrides,
  };
}

export class ContractHarness {
  /** Every client built here logs into this one capture (a real pino logger, unredacted, so a leak shows). */
  readonly logs: CapturedLogs = captureLogs();
  /** The client as production builds it (default timeouts), with the simulator's key. */
  readonly client: RunPodClient;
  /** Same key, tiny timeouts: for delay faults that must outlast the client. */
  readonly impatient: RunPodClient;
  private readonly clients: RunPodClient[] = [];

  private constructor(
    readonly sim: RunningSimulator,
    readonly clock: ManualClock,
  ) {
    this.client = this.newClient();
    this.impatient = this.newClient({ timeouts: IMPATIENT_TIMEOUTS, metricsTimeouts: IMPATIENT_TIMEOUTS });
  }

  static async start(options: Partial<SimOptions> = {}): Promise<ContractHarness> {
    const clock = new ManualClock();
    const sim = await startSimulator({
      port: 0,
      apiKey: CONTRACT_API_KEY,
      now: clock.now,
      timings: PHASE_TIMINGS,
      ...options,
    });
    return new ContractHarness(sim, clock);
  }

  /** A further client on this simulator (closed with the harness). */
  newClient(overrides: Partial<RunPodClientOptions> = {}): RunPodClient {
    const client = new RunPodClient({
      apiKey: CONTRACT_API_KEY,
      baseUrl: this.sim.baseUrl,
      proxyUrlTemplate: this.sim.proxyUrlTemplate,
      logger: this.logs.logger,
      ...overrides,
    });
    this.clients.push(client);
    return client;
  }

  advance(ms: number): void {
    this.clock.advance(ms);
  }

  /** Back to the startup scenario (patched by `scenario`): no pods, faults, calls or scrapes. */
  async reset(scenario?: Record<string, unknown>): Promise<void> {
    await this.admin('POST', '/reset', scenario);
    this.logs.clear();
  }

  async putConfig(patch: Record<string, unknown>): Promise<void> {
    await this.admin('PUT', '/config', patch);
  }

  async injectFault(fault: FaultRequest): Promise<void> {
    await this.admin('POST', '/faults', fault);
  }

  async seedPod(seed: PodSeed): Promise<string> {
    const pod = (await this.admin('POST', '/pods', seed)) as { id: string };
    return pod.id;
  }

  async forceStatus(podId: string, status: PodSeed['status'], runtime?: string): Promise<void> {
    await this.admin('POST', `/pods/${encodeURIComponent(podId)}/status`, { status, runtime });
  }

  async setBehaviour(podId: string, behaviour: string): Promise<void> {
    await this.admin('POST', `/pods/${encodeURIComponent(podId)}/vllm`, { behaviour });
  }

  async calls(): Promise<RecordedCall[]> {
    return ((await this.admin('GET', '/calls')) as { calls: RecordedCall[] }).calls;
  }

  async scrapes(): Promise<Record<string, ProxyTraffic>> {
    return ((await this.admin('GET', '/scrapes')) as { pods: Record<string, ProxyTraffic> }).pods;
  }

  /** The whole simulator state as text (to search for a leaked key). */
  async stateText(): Promise<string> {
    return JSON.stringify(await this.admin('GET', '/state'));
  }

  /** What the simulator puts on the wire for a control-plane GET (read directly, key included). */
  async wire(path: string): Promise<WireAnswer> {
    const response = await fetch(`${this.sim.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${CONTRACT_API_KEY}` },
    });
    const text = await response.text();
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      json: text === '' ? null : (JSON.parse(text) as unknown),
    };
  }

  /** POST …/v1/chat/completions through the pod proxy; it is held until the clock passes its duration. */
  async chat(podId: string, durationMs: number): Promise<ChatUsage> {
    const url = this.sim.proxyUrlTemplate
      .replace('{podId}', encodeURIComponent(podId))
      .replace('{port}', String(POD_PORT));
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'Qwen/Qwen2.5-32B-Instruct-AWQ',
        messages: [{ role: 'user', content: 'Summarise the contract in one line.' }],
        sim_duration_ms: durationMs,
      }),
    });
    const body = (await response.json()) as { usage?: ChatUsage };
    if (response.status !== 200 || body.usage === undefined) {
      throw new Error(`chat answered ${response.status}: ${JSON.stringify(body)}`);
    }
    return body.usage;
  }

  /** Waits for a call the simulator records only once it has answered (a delayed one, say). */
  async waitForCall(matches: (call: RecordedCall) => boolean): Promise<RecordedCall> {
    let found: RecordedCall | undefined;
    await eventually(async () => {
      found = (await this.calls()).find(matches);
      return found !== undefined;
    }, 'the simulator to record the call');
    return found as RecordedCall;
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.close()));
    await this.sim.close();
  }

  private async admin(method: string, path: string, body?: unknown): Promise<unknown> {
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { 'content-type': 'application/json' };
    }
    const response = await fetch(`${this.sim.adminUrl}${path}`, init);
    const text = await response.text();
    // A setup step that silently failed would make the case assert something else.
    if (response.status < 200 || response.status >= 300) {
      throw new Error(`admin ${method} /_sim${path} answered ${response.status}: ${text}`);
    }
    return text === '' ? null : (JSON.parse(text) as unknown);
  }
}

/** Polls until the check holds; requests reach the server asynchronously. */
export async function eventually(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}
