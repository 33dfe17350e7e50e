import type { Dispatcher } from 'undici';
import {
  CONTROL_PLANE_MAX_BODY_BYTES,
  type ExchangeTimeouts,
  type RunPodExchange,
  type RunPodLogger,
} from './client-options';
import { logControlPlaneOutcome } from './control-plane-log';
import { performExchange, type ExchangeOutcome, type HttpMethod } from './http-exchange';
import { redactSecret, redactSecretInBody } from './secret-redaction';

export interface TransportSettings {
  readonly apiKey: string | null;
  readonly baseUrl: string;
  readonly dispatcher: Dispatcher;
  readonly timeouts: ExchangeTimeouts;
  readonly logger: RunPodLogger;
  readonly onExchange: (exchange: RunPodExchange) => void;
}

/**
 * The wire under the client: the key travels only in the Authorization header
 * of control-plane calls, nothing read back (a body, a failure reason) carries
 * it further, and every exchange is reported to the metrics hook.
 */
export class ControlPlaneTransport {
  constructor(private readonly settings: TransportSettings) {}

  async call(
    op: string,
    method: HttpMethod,
    path: string,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<ExchangeOutcome> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.settings.apiKey ?? ''}`,
      accept: 'application/json',
    };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
    }
    const outcome = this.scrub(
      await performExchange(this.settings.dispatcher, {
        method,
        url: `${this.settings.baseUrl}${path}`,
        headers,
        body,
        timeouts: this.settings.timeouts,
        maxBodyBytes: CONTROL_PLANE_MAX_BODY_BYTES,
        signal,
      }),
    );
    this.reported(op, outcome);
    logControlPlaneOutcome(this.settings.logger, op, method, path, outcome);
    return outcome;
  }

  /** An exchange made outside the control plane (the metrics scrape): reported, then scrubbed. */
  readBack(route: string, outcome: ExchangeOutcome): ExchangeOutcome {
    return this.scrub(this.reported(route, outcome));
  }

  /** Tells the metrics hook; one that throws must not turn an answered call into a failed one. */
  private reported(route: string, outcome: ExchangeOutcome): ExchangeOutcome {
    const status =
      outcome.kind === 'response'
        ? String(outcome.status)
        : outcome.reason === 'timeout'
          ? 'timeout'
          : 'error';
    try {
      this.settings.onExchange({ route, status });
    } catch {
      // ignored: see above
    }
    return outcome;
  }

  /** Nothing read back from the network may carry the key further. */
  private scrub(outcome: ExchangeOutcome): ExchangeOutcome {
    const { apiKey } = this.settings;
    return outcome.kind === 'failed'
      ? { kind: 'failed', reason: redactSecret(outcome.reason, apiKey) }
      : { ...outcome, body: redactSecretInBody(outcome.body, apiKey) };
  }
}
