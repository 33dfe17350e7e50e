import type { Dispatcher } from 'undici';

/** A pino-like structural logger: the object carries the facts, the message names the event. */
export interface RunPodLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * One request the client made, for metrics: which route (the operation, never
 * a URL, an id or a header) and how it ended (the HTTP status, or "timeout" /
 * "error" when nothing answered).
 */
export interface RunPodExchange {
  readonly route: string;
  readonly status: string;
}

/** Budgets for one exchange, in milliseconds. */
export interface ExchangeTimeouts {
  readonly connectMs: number;
  readonly headersMs: number;
  readonly bodyMs: number;
}

export interface RunPodClientOptions {
  /** null or blank ⇒ unconfigured: every call no-ops without a request. */
  readonly apiKey: string | null;
  /** Control-plane base, e.g. https://api.runpod.io/v2. */
  readonly baseUrl: string;
  /** Pod proxy base with {podId} and {port} placeholders. */
  readonly proxyUrlTemplate: string;
  readonly timeouts?: Partial<ExchangeTimeouts>;
  /** The metrics scrape runs every idle tick, so it gets a shorter leash than the control plane. */
  readonly metricsTimeouts?: Partial<ExchangeTimeouts>;
  readonly maxMetricsBytes?: number;
  readonly logger?: RunPodLogger;
  /** Injected transport (tests pass a MockAgent); the client then neither owns nor closes it. */
  readonly dispatcher?: Dispatcher;
  /** Told of every request made (not of the no-op calls while unconfigured); must not throw. */
  readonly onExchange?: (exchange: RunPodExchange) => void;
  /** Wall clock used only to resolve a Retry-After date when the response carries no Date header. */
  readonly now?: () => number;
}

export const DEFAULT_CONTROL_PLANE_TIMEOUTS: ExchangeTimeouts = {
  connectMs: 5_000,
  headersMs: 10_000,
  bodyMs: 10_000,
};
export const DEFAULT_METRICS_TIMEOUTS: ExchangeTimeouts = {
  connectMs: 3_000,
  headersMs: 5_000,
  bodyMs: 5_000,
};
export const DEFAULT_MAX_METRICS_BYTES = 1024 * 1024;
/** A pod list is small; the cap only stops a misrouted base URL from streaming something huge into memory. */
export const CONTROL_PLANE_MAX_BODY_BYTES = 8 * 1024 * 1024;

export const SILENT_LOGGER: RunPodLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export function resolveTimeouts(
  overrides: Partial<ExchangeTimeouts> | undefined,
  defaults: ExchangeTimeouts,
): ExchangeTimeouts {
  return {
    connectMs: positiveOr(overrides?.connectMs, defaults.connectMs),
    headersMs: positiveOr(overrides?.headersMs, defaults.headersMs),
    bodyMs: positiveOr(overrides?.bodyMs, defaults.bodyMs),
  };
}

export function positiveOr(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
