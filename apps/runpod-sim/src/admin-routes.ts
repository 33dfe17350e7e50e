import { CallLog } from './call-log';
import { FaultInjector, parseFault } from './fault-injector';
import { decodeSegment, jsonResponse, ParsedBody, problemResponse, SimResponse } from './http-io';
import {
  asNumber,
  asOneOf,
  asRecord,
  asString,
  isRecord,
  onlyKeys,
  optional,
  readShape,
} from './json-reader';
import { ForcedRuntime } from './pod-lifecycle';
import {
  ATTACH_RUNTIMES,
  parseScenarioPatch,
  POD_STATUS_WORDS,
  readPodSeed,
  Scenario,
  VLLM_BEHAVIOURS,
} from './scenario';
import { SimWorld } from './sim-state';
import { podToWire } from './wire-json';
import { LOG_SCENARIOS } from './pod-logs';

/**
 * /_sim: the simulator's own control surface, for tests and demos only —
 * reset, inspect, seed pods, force statuses, set vLLM behaviour, inject
 * faults, read the call log and the billing ledger. Never authenticated and
 * never part of RunPod's API.
 */
export interface AdminRequest {
  readonly method: string;
  /** Path below /_sim, e.g. /pods/abc/status ('' for /_sim itself). */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: ParsedBody;
}

const FORCED_RUNTIMES: readonly ForcedRuntime[] = ['live', ...ATTACH_RUNTIMES];

export class AdminRoutes {
  constructor(
    private readonly world: SimWorld,
    private readonly faults: FaultInjector,
    private readonly calls: CallLog,
    /** What POST /_sim/reset returns to (the startup scenario). */
    private readonly baseline: Scenario,
    private readonly apiKeyConfigured: boolean,
  ) {}

  handle(request: AdminRequest): SimResponse {
    if (request.body.kind === 'invalid') return problemResponse(400, 'request body is not valid JSON');
    const body = request.body.kind === 'json' ? request.body.value : undefined;
    const route = `${request.method} ${request.path}`;
    switch (route) {
      case 'GET /health':
        return jsonResponse(200, { ok: true });
      case 'GET /state':
        return jsonResponse(200, {
          ...this.world.dump(),
          apiKeyConfigured: this.apiKeyConfigured,
          faults: this.faults.list(),
        });
      case 'POST /reset':
        return this.reset(body);
      case 'GET /config':
        return jsonResponse(200, this.config());
      case 'PUT /config':
        return this.putConfig(body);
      case 'GET /calls':
        return jsonResponse(200, {
          calls: this.calls.calls({
            method: request.query.get('method') ?? undefined,
            path: request.query.get('path') ?? undefined,
          }),
        });
      case 'GET /calls/held':
        return jsonResponse(200, { held: this.calls.held });
      case 'DELETE /calls':
        this.calls.clear();
        return jsonResponse(200, { ok: true });
      case 'GET /scrapes':
        return jsonResponse(200, { pods: this.calls.proxyStats() });
      case 'GET /billing':
        return jsonResponse(200, {
          ...this.world.ledger.report(this.world.now()),
          balance: this.world.balance(),
        });
      case 'GET /faults':
        return jsonResponse(200, { faults: this.faults.list() });
      case 'POST /faults':
        return this.addFault(body);
      case 'DELETE /faults':
        this.faults.clear();
        return jsonResponse(200, { ok: true });
      case 'POST /pods':
        return this.seedPod(body);
      case 'POST /logs':
        return this.defaultLogs(body);
      case 'POST /billing/charges':
        return this.addCharge(body);
    }
    const logsRoute = /^\/pods\/([^/]+)\/logs$/.exec(request.path);
    if (logsRoute !== null && request.method === 'POST') {
      const podId = decodeSegment(logsRoute[1]);
      const pod = podId === null ? undefined : this.world.find(podId);
      if (pod === undefined) return problemResponse(404, `no pod ${logsRoute[1]}`);
      const read = readShape(() => readLogScenario(body));
      if (!read.ok) return problemResponse(400, read.error);
      this.world.setLogScenario(pod, read.value);
      return jsonResponse(200, { id: pod.id, logScenario: pod.logScenario, behaviour: pod.behaviour });
    }
    const podRoute = /^\/pods\/([^/]+)\/(vllm|status)$/.exec(request.path);
    if (podRoute !== null && request.method === 'POST') {
      const podId = decodeSegment(podRoute[1]);
      const pod = podId === null ? undefined : this.world.find(podId);
      if (pod === undefined) return problemResponse(404, `no pod ${podRoute[1]}`);
      const wire = this.world.scenario.wire;
      if (podRoute[2] === 'vllm') {
        const read = readShape(() => {
          const record = asRecord(body, 'body');
          onlyKeys(record, ['behaviour'], 'body');
          return asOneOf(record.behaviour, 'body.behaviour', VLLM_BEHAVIOURS);
        });
        if (!read.ok) return problemResponse(400, read.error);
        this.world.setBehaviour(pod, read.value);
        return jsonResponse(200, { id: pod.id, behaviour: pod.behaviour });
      }
      const read = readShape(() => {
        const record = asRecord(body, 'body');
        onlyKeys(record, ['status', 'runtime'], 'body');
        return {
          status: asOneOf(record.status, 'body.status', POD_STATUS_WORDS),
          runtime: optional<ForcedRuntime>(record.runtime, 'live', (v) =>
            asOneOf(v, 'body.runtime', FORCED_RUNTIMES),
          ),
        };
      });
      if (!read.ok) return problemResponse(400, read.error);
      this.world.force(pod, read.value.status, read.value.runtime);
      return jsonResponse(200, podToWire(pod, this.world.view(pod), wire));
    }
    return problemResponse(404, `no admin route ${request.method} /_sim${request.path}`);
  }

  private reset(body: unknown): SimResponse {
    const parsed =
      body === undefined
        ? { ok: true as const, value: this.baseline }
        : parseScenarioPatch(body, this.baseline, 'scenario');
    if (!parsed.ok) return problemResponse(400, parsed.error);
    const reset = this.world.reset(parsed.value);
    if (!reset.ok) return problemResponse(400, reset.error);
    this.faults.clear();
    this.calls.clear();
    return jsonResponse(200, { ok: true, pods: this.world.listed().length });
  }

  private config(): Record<string, unknown> {
    const { pods: _pods, ...config } = this.world.scenario;
    return { ...config, apiKeyConfigured: this.apiKeyConfigured };
  }

  private putConfig(body: unknown): SimResponse {
    const parsed = parseScenarioPatch(body, this.world.scenario, 'config', false);
    if (!parsed.ok) return problemResponse(400, parsed.error);
    this.world.applyConfig(parsed.value, isRecord(body) && body.balance !== undefined);
    return jsonResponse(200, this.config());
  }

  private addFault(body: unknown): SimResponse {
    const parsed = parseFault(body);
    if (!parsed.ok) return problemResponse(400, parsed.error);
    return jsonResponse(201, this.faults.add(parsed.value));
  }

  /** The boot-log story of every pod created from now on (a wake's new pod included). */
  private defaultLogs(body: unknown): SimResponse {
    const read = readShape(() => readLogScenario(body));
    if (!read.ok) return problemResponse(400, read.error);
    this.world.defaultLogScenario = read.value;
    return jsonResponse(200, { logScenario: read.value });
  }

  /** A charge RunPod made that no lifecycle explains: { podId, usd, at? (ISO, default now) }. */
  private addCharge(body: unknown): SimResponse {
    const read = readShape(() => {
      const record = asRecord(body, 'body');
      onlyKeys(record, ['podId', 'usd', 'at'], 'body');
      const at = optional(record.at, null, (v) => asString(v, 'body.at'));
      return {
        podId: asString(record.podId, 'body.podId'),
        usd: asNumber(record.usd, 'body.usd', { min: 0 }),
        at: at === null ? this.world.now() : Date.parse(at),
      };
    });
    if (!read.ok) return problemResponse(400, read.error);
    if (!Number.isFinite(read.value.at)) return problemResponse(400, 'body.at: not an ISO time');
    this.world.extraCharges.push(read.value);
    return jsonResponse(201, { ...read.value, at: new Date(read.value.at).toISOString() });
  }

  private seedPod(body: unknown): SimResponse {
    const read = readShape(() => readPodSeed(body, 'pod'));
    if (!read.ok) return problemResponse(400, read.error);
    const seeded = this.world.seed(read.value);
    if (!seeded.ok) return problemResponse(400, seeded.error);
    return jsonResponse(
      201,
      podToWire(seeded.value, this.world.view(seeded.value), this.world.scenario.wire),
    );
  }
}

function readLogScenario(body: unknown) {
  const record = asRecord(body, 'body');
  onlyKeys(record, ['scenario'], 'body');
  return asOneOf(record.scenario, 'body.scenario', LOG_SCENARIOS);
}
