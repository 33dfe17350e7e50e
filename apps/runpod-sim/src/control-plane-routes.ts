import { timingSafeEqual } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { CallLog } from './call-log';
import { decideCreate } from './create-request';
import { twistPlan } from './create-twist';
import { FaultInjector, FaultRoute, FaultSpec } from './fault-injector';
import { plainFault, truncatedJson, withoutIds } from './fault-responses';
import {
  bodyForLog,
  decodeSegment,
  emptyResponse,
  headerValue,
  jsonResponse,
  ParsedBody,
  problemResponse,
  SimResponse,
} from './http-io';
import { isRecord } from './json-reader';
import { SimWorld } from './sim-state';
import { TimerRegistry } from './timer-registry';
import { catalogToWire, podToWire } from './wire-json';
import {
  accountBillingRecords,
  billingMetadata,
  podBillingRecords,
  readBillingQuery,
} from './billing-history';
import { logEvent, podLogLines } from './pod-logs';

/**
 * RunPod REST v2 as podwarden uses it, under /v2: catalog, list, observe,
 * create, start/stop, terminate. Bearer auth when a key is configured; every
 * request is logged (never the key); faults reshape answers for tests.
 */
type RouteMatch =
  | { readonly route: 'catalog' | 'list' | 'create' | 'billing-pods' | 'billing' }
  | { readonly route: 'observe' | 'action' | 'terminate' | 'logs'; readonly podId: string }
  | { readonly route: 'unknown' }
  | { readonly route: 'method-not-allowed'; readonly allow: string }
  | { readonly route: 'bad-path' };

export interface ControlPlaneRequest {
  readonly req: IncomingMessage;
  readonly method: string;
  /** Path below /v2, e.g. /pods/abc. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: ParsedBody;
}

const POD_NOT_FOUND = 'pod not found or not accessible';

export class ControlPlaneRoutes {
  constructor(
    private readonly world: SimWorld,
    private readonly faults: FaultInjector,
    private readonly calls: CallLog,
    private readonly timers: TimerRegistry,
    private readonly apiKey: string | null,
  ) {}

  async handle(request: ControlPlaneRequest): Promise<SimResponse> {
    const at = new Date(this.world.wall()).toISOString();
    const bearer = bearerToken(headerValue(request.req, 'authorization'));
    const authorized = this.apiKey === null || (bearer !== null && sameSecret(bearer, this.apiKey));
    let fault: FaultSpec | null = null;
    let response: SimResponse;
    if (!authorized) {
      response = problemResponse(
        401,
        'missing or invalid API key',
        { 'www-authenticate': 'Bearer' },
        'Unauthorized',
      );
    } else {
      const match = matchRoute(request.method, request.path);
      fault = faultFor(match, this.faults);
      const release = fault?.kind === 'delay' || fault?.kind === 'late-answer' ? this.calls.hold() : null;
      try {
        response = await this.answer(match, request, fault);
      } finally {
        // Released in the same turn as the call is logged below: no reader sees neither.
        release?.();
      }
    }
    this.calls.recordCall({
      at,
      method: request.method,
      path: request.path,
      query: Object.fromEntries(request.query.entries()),
      body: bodyForLog(request.body),
      status: response.status,
      authorized,
      bearerPresent: bearer !== null,
      fault: fault?.kind ?? null,
    });
    return response;
  }

  private async answer(
    match: RouteMatch,
    request: ControlPlaneRequest,
    fault: FaultSpec | null,
  ): Promise<SimResponse> {
    const run = (): SimResponse => this.dispatch(match, request, fault);
    if (fault === null) return run();
    switch (fault.kind) {
      case 'status':
      case 'unreadable':
      case 'bare-404':
        return plainFault(fault);
      case 'delay':
        await this.sleepReal(fault.delayMs);
        return run();
      case 'malformed':
        return truncatedJson(run());
      case 'after-effect':
        run();
        return problemResponse(fault.status, 'injected fault: upstream error after the request was accepted');
      case 'no-id':
        return withoutIds(run());
      // huge-body and slow-drip are metrics-only: parseFault refuses them here.
      case 'no-volume':
      case 'other-gpu':
      case 'huge-body':
      case 'slow-drip':
      case 'ignore':
        return run();
      case 'late-answer': {
        const answer = run();
        await this.sleepReal(fault.delayMs);
        return answer;
      }
    }
  }

  private dispatch(match: RouteMatch, request: ControlPlaneRequest, fault: FaultSpec | null): SimResponse {
    switch (match.route) {
      case 'catalog':
        return this.catalog(request.query);
      case 'list':
        return this.list();
      case 'observe':
        return this.observe(match.podId);
      case 'create':
        return this.create(request.body, fault);
      case 'action':
        return this.action(match.podId, request.body, fault);
      case 'terminate':
        return this.terminate(match.podId);
      case 'billing-pods':
        return this.podBilling(request.query);
      case 'billing':
        return this.accountBilling(request.query);
      case 'logs':
        return this.logs(match.podId, request.query);
      case 'method-not-allowed':
        return problemResponse(405, `method ${request.method} not allowed on ${request.path}`, {
          allow: match.allow,
        });
      case 'bad-path':
        return problemResponse(400, 'malformed pod id in the path');
      case 'unknown':
        return problemResponse(404, `no route ${request.method} /v2${request.path}`);
    }
  }

  private catalog(query: URLSearchParams): SimResponse {
    const include = query.get('include');
    const product = query.get('product');
    if (include !== null && include !== 'AVAILABILITY') {
      return problemResponse(400, `include must be AVAILABILITY, got ${include}`);
    }
    if (include !== null && product === null) {
      return problemResponse(400, 'product is required when include is given (product=POD)');
    }
    if (product !== null && product !== 'POD' && product !== 'SERVERLESS') {
      return problemResponse(400, `product must be POD or SERVERLESS, got ${product}`);
    }
    const scenario = this.world.scenario;
    return jsonResponse(200, catalogToWire(scenario.catalog, scenario.wire, include === 'AVAILABILITY'));
  }

  private list(): SimResponse {
    const wire = this.world.scenario.wire;
    const pods = this.world.listed().map(({ pod, view }) => podToWire(pod, view, wire));
    return jsonResponse(200, wire.listShape === 'object' ? { pods } : pods);
  }

  private observe(podId: string): SimResponse {
    const pod = this.world.find(podId);
    if (pod === undefined) return problemResponse(404, POD_NOT_FOUND);
    return jsonResponse(200, podToWire(pod, this.world.view(pod), this.world.scenario.wire));
  }

  private create(body: ParsedBody, fault: FaultSpec | null): SimResponse {
    if (body.kind !== 'json') return problemResponse(400, 'request body must be a JSON object');
    const scenario = this.world.scenario;
    const decision = decideCreate(body.value, {
      catalog: scenario.catalog,
      templates: scenario.templates,
      volumes: scenario.volumes,
      balance: this.world.balance(),
      insufficientBalanceHours: scenario.insufficientBalanceHours,
    });
    if (!decision.ok) return problemResponse(decision.status, decision.detail);
    const pod = this.world.create(twistPlan(decision.plan, fault, scenario.catalog));
    const listLagMs = fault?.kind === 'after-effect' ? fault.listLagMs : 0;
    if (listLagMs > 0) this.world.hideFromList(pod.id, this.world.wall() + listLagMs);
    return jsonResponse(201, podToWire(pod, this.world.view(pod), scenario.wire));
  }

  private action(podId: string, body: ParsedBody, fault: FaultSpec | null): SimResponse {
    if (body.kind !== 'json' || !isRecord(body.value)) {
      return problemResponse(400, 'request body must be a JSON object {"action": "start" | "stop"}');
    }
    const action = body.value.action;
    if (action !== 'start' && action !== 'stop') {
      return problemResponse(400, 'action must be "start" or "stop"');
    }
    const pod = this.world.find(podId);
    if (pod === undefined) return problemResponse(404, POD_NOT_FOUND);
    if (fault?.kind === 'ignore')
      return jsonResponse(200, podToWire(pod, this.world.view(pod), this.world.scenario.wire));
    const result = action === 'start' ? this.world.start(pod) : this.world.stop(pod);
    if (!result.ok) return problemResponse(409, result.detail);
    return jsonResponse(200, podToWire(pod, this.world.view(pod), this.world.scenario.wire));
  }

  private terminate(podId: string): SimResponse {
    const pod = this.world.find(podId);
    if (pod === undefined) return problemResponse(404, POD_NOT_FOUND);
    const result = this.world.terminate(pod);
    if (!result.ok) return problemResponse(409, result.detail);
    return emptyResponse(204);
  }

  /** GET /billing/pods: charges per pod per bucket, visible after the billing lag; the current bucket grows. */
  private podBilling(query: URLSearchParams): SimResponse {
    const now = this.world.now();
    const read = readBillingQuery(query, now);
    if (typeof read === 'string') return problemResponse(400, read);
    const visibleTo = now - this.world.scenario.timings.billingLagMs;
    const bills = this.world.ledger.report(now).pods;
    const records = podBillingRecords(bills, this.world.extraCharges, read, visibleTo);
    return jsonResponse(200, { records, metadata: billingMetadata(read, records) });
  }

  /** GET /billing: every family per bucket; network volume storage accrues whether pods run or not. */
  private accountBilling(query: URLSearchParams): SimResponse {
    const now = this.world.now();
    const read = readBillingQuery(query, now);
    if (typeof read === 'string') return problemResponse(400, read);
    const visibleTo = now - this.world.scenario.timings.billingLagMs;
    const pods = podBillingRecords(
      this.world.ledger.report(now).pods,
      this.world.extraCharges,
      { ...read, podId: null },
      visibleTo,
    );
    const storageGb = this.world.scenario.volumes.reduce((sum, volume) => sum + volume.sizeGb, 0);
    const records = accountBillingRecords(pods, storageGb, read, visibleTo);
    return jsonResponse(200, { records, metadata: billingMetadata(read, records) });
  }

  /**
   * GET /pods/{id}/logs: server-sent events, `tail` backfilled lines (default 100, at most 5000) of
   * `source` (system, container, or both), then new lines as the pod logs them, until the client leaves.
   */
  private logs(podId: string, query: URLSearchParams): SimResponse {
    const pod = this.world.find(podId);
    if (pod === undefined) return problemResponse(404, POD_NOT_FOUND);
    const source = query.get('source');
    if (source !== null && source !== 'system' && source !== 'container') {
      return problemResponse(400, 'source must be container or system');
    }
    const tail = Number(query.get('tail') ?? '100');
    if (!Number.isInteger(tail) || tail < 0 || tail > 5000)
      return problemResponse(400, 'tail must be 0-5000');
    const of = () => podLogLines(pod, this.world.now()).filter((l) => source === null || l.source === source);
    const backfill = tail === 0 ? [] : of().slice(-tail);
    let sentUpTo = of().at(-1)?.ts ?? -Infinity;
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
      body: '',
      json: undefined,
      stream: async (sink) => {
        for (const line of backfill) sink.write(logEvent(line));
        // Live lines until the client leaves (bounded: ten real minutes).
        for (let waited = 0; !sink.closed && waited < 600_000; waited += 200) {
          await this.sleepReal(200);
          for (const line of of().filter((l) => l.ts > sentUpTo)) sink.write(logEvent(line));
          sentUpTo = Math.max(sentUpTo, of().at(-1)?.ts ?? sentUpTo);
        }
      },
    };
  }

  private sleepReal(delayMs: number): Promise<void> {
    return new Promise((resolve) => this.timers.after(delayMs, resolve));
  }
}

function matchRoute(method: string, path: string): RouteMatch {
  if (path === '/catalog/gpus') return method === 'GET' ? { route: 'catalog' } : notAllowed('GET');
  if (path === '/billing/pods') return method === 'GET' ? { route: 'billing-pods' } : notAllowed('GET');
  if (path === '/billing') return method === 'GET' ? { route: 'billing' } : notAllowed('GET');
  const logsMatch = /^\/pods\/([^/]+)\/logs$/.exec(path);
  if (logsMatch !== null) {
    const podId = decodeSegment(logsMatch[1]);
    if (podId === null) return { route: 'bad-path' };
    return method === 'GET' ? { route: 'logs', podId } : notAllowed('GET');
  }
  if (path === '/pods') {
    if (method === 'GET') return { route: 'list' };
    if (method === 'POST') return { route: 'create' };
    return notAllowed('GET, POST');
  }
  const podMatch = /^\/pods\/([^/]+)(\/action)?$/.exec(path);
  if (podMatch === null) return { route: 'unknown' };
  const podId = decodeSegment(podMatch[1]);
  if (podId === null) return { route: 'bad-path' };
  if (podMatch[2] !== undefined) return method === 'POST' ? { route: 'action', podId } : notAllowed('POST');
  if (method === 'GET') return { route: 'observe', podId };
  if (method === 'DELETE') return { route: 'terminate', podId };
  return notAllowed('GET, DELETE');
}

function notAllowed(allow: string): RouteMatch {
  return { route: 'method-not-allowed', allow };
}

function faultFor(match: RouteMatch, faults: FaultInjector): FaultSpec | null {
  switch (match.route) {
    case 'catalog':
    case 'list':
    case 'create':
      return faults.take(match.route satisfies FaultRoute, null);
    case 'observe':
    case 'action':
    case 'terminate':
      return faults.take(match.route, match.podId);
    default:
      return null;
  }
}

function bearerToken(header: string | null): string | null {
  if (header === null) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match === null ? null : match[1].trim();
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
