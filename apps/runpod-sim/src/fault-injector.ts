import {
  asNumber,
  asOneOf,
  asRecord,
  asString,
  isRecord,
  JsonShapeError,
  onlyKeys,
  optional,
  readShape,
  ShapeResult,
} from './json-reader';

/**
 * Test-and-demo-only faults: each applies to the next N matching requests and
 * then expires. They reproduce what the real API and Cloudflare do on a bad
 * day, including the dangerous ones: a create that placed a pod but answered
 * 5xx (`after-effect`), and a 2xx create whose body has no id (`no-id`).
 */
export const FAULT_ROUTES = [
  'catalog',
  'list',
  'observe',
  'create',
  'action',
  'terminate',
  'metrics',
] as const;
export type FaultRoute = (typeof FAULT_ROUTES)[number];

export const FAULT_KINDS = [
  'status',
  'delay',
  'malformed',
  'bare-404',
  'after-effect',
  'no-id',
  'unreadable',
  'no-volume',
  'other-gpu',
  'late-answer',
  'huge-body',
  'slow-drip',
  'ignore',
] as const;
export type FaultKindName = (typeof FAULT_KINDS)[number];

export type FaultSpec =
  | {
      readonly kind: 'status';
      readonly status: number;
      /** Retry-After header value: delta seconds or an HTTP date; null for none. */
      readonly retryAfter: string | null;
      /** Body to send; undefined sends a problem+json body. */
      readonly body: unknown;
    }
  /** Waits real (wall-clock) milliseconds, then answers normally — to outlast a client timeout. */
  | { readonly kind: 'delay'; readonly delayMs: number }
  /** The request takes effect, then a 2xx carries a truncated, non-JSON body. */
  | { readonly kind: 'malformed' }
  /** A 404 text/html page, not problem JSON (a wrong base URL or a proxy page). */
  | { readonly kind: 'bare-404' }
  /**
   * The request takes effect, then `status` (5xx) is answered; a created pod
   * stays out of GET /pods for `listLagMs` real milliseconds (the list lags).
   */
  | { readonly kind: 'after-effect'; readonly status: number; readonly listLagMs: number }
  /** A create is answered 201, but the pod is placed without the requested network volume. */
  | { readonly kind: 'no-volume' }
  /** A create is answered 201, but the pod is placed on another GPU (`gpuId`, or the first other one). */
  | { readonly kind: 'other-gpu'; readonly gpuId: string | null }
  /** The create places its pod at once; its answer leaves only after `delayMs` real ms (past a client timeout). */
  | { readonly kind: 'late-answer'; readonly delayMs: number }
  /** The request takes effect (a create places its pod), then a 2xx answers pod JSON without `id`. */
  | { readonly kind: 'no-id' }
  /** 500, nothing happens. */
  | { readonly kind: 'unreadable' }
  /** /metrics answers 200 with idle-looking vLLM gauges, then `bytes` of comment lines (streamed). */
  | { readonly kind: 'huge-body'; readonly bytes: number }
  /** /metrics answers 200 at once, then one short line every `intervalMs` real ms for `durationMs`. */
  | { readonly kind: 'slow-drip'; readonly intervalMs: number; readonly durationMs: number }
  /** An action is answered 200 with the pod as it is, and nothing happens (a stop RunPod accepts but ignores). */
  | { readonly kind: 'ignore' };

export interface PendingFault {
  readonly id: number;
  readonly route: FaultRoute;
  /** Only requests for this pod match; null matches any. */
  readonly podId: string | null;
  remaining: number;
  /** Real ms the fault lasts from when it is added, matching every request meanwhile; null: `remaining` uses. */
  readonly forMs: number | null;
  readonly spec: FaultSpec;
}

const POD_SCOPED_ROUTES: readonly FaultRoute[] = ['observe', 'action', 'terminate', 'metrics'];

/** Kinds that only make sense where a request has an effect or returns a pod. */
const ROUTES_FOR_KIND: Partial<Record<FaultKindName, readonly FaultRoute[]>> = {
  'after-effect': ['create', 'action', 'terminate'],
  'no-id': ['create', 'observe', 'action', 'list'],
  'no-volume': ['create'],
  'other-gpu': ['create'],
  'late-answer': ['create'],
  'huge-body': ['metrics'],
  'slow-drip': ['metrics'],
  ignore: ['action'],
};

export function parseFault(raw: unknown): ShapeResult<Omit<PendingFault, 'id'>> {
  return readShape(() => {
    const record = asRecord(raw, 'fault');
    onlyKeys(
      record,
      [
        'route',
        'podId',
        'times',
        'forMs',
        'kind',
        'status',
        'retryAfter',
        'body',
        'delayMs',
        'gpuId',
        'listLagMs',
        'bytes',
        'intervalMs',
        'durationMs',
      ],
      'fault',
    );
    const route = asOneOf(record.route, 'fault.route', FAULT_ROUTES);
    const kind = asOneOf(record.kind, 'fault.kind', FAULT_KINDS);
    const podId = optional<string | null>(record.podId, null, (v) => asString(v, 'fault.podId'));
    if (podId !== null && !POD_SCOPED_ROUTES.includes(route)) {
      throw new JsonShapeError('fault.podId', `route ${route} carries no pod id`);
    }
    const allowedRoutes = ROUTES_FOR_KIND[kind];
    if (allowedRoutes !== undefined && !allowedRoutes.includes(route)) {
      throw new JsonShapeError('fault.kind', `${kind} applies to routes ${allowedRoutes.join(', ')} only`);
    }
    return {
      route,
      podId,
      remaining: optional(record.times, 1, (v) =>
        asNumber(v, 'fault.times', { integer: true, min: 1, max: 100_000 }),
      ),
      forMs: optional<number | null>(record.forMs, null, (v) =>
        asNumber(v, 'fault.forMs', { min: 1, max: 3_600_000 }),
      ),
      spec: readSpec(kind, record),
    };
  });
}

function readSpec(kind: FaultKindName, record: Record<string, unknown>): FaultSpec {
  switch (kind) {
    case 'status':
      return {
        kind,
        status: asNumber(record.status, 'fault.status', { integer: true, min: 200, max: 599 }),
        retryAfter: optional<string | null>(record.retryAfter, null, readRetryAfter),
        body: record.body,
      };
    case 'delay':
    case 'late-answer':
      return { kind, delayMs: asNumber(record.delayMs, 'fault.delayMs', { min: 0, max: 600_000 }) };
    case 'after-effect':
      return {
        kind,
        status: optional(record.status, 500, (v) =>
          asNumber(v, 'fault.status', { integer: true, min: 500, max: 599 }),
        ),
        listLagMs: optional(record.listLagMs, 0, (v) =>
          asNumber(v, 'fault.listLagMs', { min: 0, max: 600_000 }),
        ),
      };
    case 'huge-body':
      return {
        kind,
        bytes: optional(record.bytes, 50 * 1024 * 1024, (v) =>
          asNumber(v, 'fault.bytes', { integer: true, min: 1, max: 1024 * 1024 * 1024 }),
        ),
      };
    case 'slow-drip':
      return {
        kind,
        intervalMs: optional(record.intervalMs, 1000, (v) =>
          asNumber(v, 'fault.intervalMs', { min: 1, max: 600_000 }),
        ),
        durationMs: optional(record.durationMs, 60_000, (v) =>
          asNumber(v, 'fault.durationMs', { min: 0, max: 3_600_000 }),
        ),
      };
    case 'other-gpu':
      return { kind, gpuId: optional<string | null>(record.gpuId, null, (v) => asString(v, 'fault.gpuId')) };
    case 'no-volume':
    case 'malformed':
    case 'bare-404':
    case 'no-id':
    case 'unreadable':
    case 'ignore':
      return { kind };
  }
}

function readRetryAfter(value: unknown): string {
  if (typeof value === 'number') return String(Math.round(asNumber(value, 'fault.retryAfter', { min: 0 })));
  if (isRecord(value) || typeof value !== 'string') {
    throw new JsonShapeError('fault.retryAfter', 'expected delta seconds or an HTTP-date string');
  }
  return asString(value, 'fault.retryAfter');
}

export class FaultInjector {
  private faults: PendingFault[] = [];
  private nextId = 1;
  /** When each timed fault (forMs) ends, in real epoch ms. */
  private readonly endsAt = new Map<number, number>();

  /** `now`: real time, for faults that last `forMs` (weather lasts wall-clock time, not simulated time). */
  constructor(private readonly now: () => number = () => Date.now()) {}

  add(fault: Omit<PendingFault, 'id'>): PendingFault {
    const pending: PendingFault = { ...fault, id: this.nextId };
    this.nextId += 1;
    this.faults.push(pending);
    if (pending.forMs !== null) this.endsAt.set(pending.id, this.now() + pending.forMs);
    return pending;
  }

  /** Consumes one use of the oldest fault matching this request, if any (a timed fault is not used up). */
  take(route: FaultRoute, podId: string | null): FaultSpec | null {
    const now = this.now();
    this.faults = this.faults.filter((f) => (this.endsAt.get(f.id) ?? Infinity) > now);
    const fault = this.faults.find((f) => f.route === route && (f.podId === null || f.podId === podId));
    if (fault === undefined) return null;
    if (fault.forMs !== null) return fault.spec;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault.spec;
  }

  list(): PendingFault[] {
    return this.faults.map((fault) => ({ ...fault }));
  }

  clear(): void {
    this.faults = [];
    this.endsAt.clear();
  }
}
