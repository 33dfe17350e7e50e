/**
 * RunPod's account beside the control plane: billing (GET /billing/pods, /billing) and a pod's logs.
 * Transport and JSON only, with RunPodClient's rules: tri-state results, nothing throws but the caller's
 * cancellation, the key only in the Authorization header and scrubbed from everything read back.
 */
import { Agent, type Dispatcher } from 'undici';
import {
  accountBillingFromOutcome,
  podBillingFromOutcome,
  type AccountBillingRead,
  type PodBillingRead,
} from './billing-json';
import {
  DEFAULT_CONTROL_PLANE_TIMEOUTS,
  SILENT_LOGGER,
  resolveTimeouts,
  type RunPodClientOptions,
} from './client-options';
import { ControlPlaneTransport } from './control-plane-transport';
import { readPodLogTail, type PodLogBounds, type PodLogRead } from './pod-log-stream';
import { redactSecret } from './secret-redaction';

export const DEFAULT_LOG_BOUNDS: PodLogBounds = {
  tail: 200,
  maxLines: 200,
  maxBytes: 256 * 1024,
  maxMs: 5_000,
  quietMs: 750,
};

export interface BillingWindow {
  /** Hour-aligned RFC 3339 start and (exclusive) end. */
  readonly startTime: string;
  readonly endTime: string;
}

export class RunPodInsights {
  readonly isConfigured: boolean;
  private readonly apiKey: string | null;
  private readonly baseUrl: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownedAgent: Agent | null;
  private readonly transport: ControlPlaneTransport;

  constructor(options: Omit<RunPodClientOptions, 'proxyUrlTemplate'>) {
    const key = options.apiKey?.trim() ?? '';
    this.apiKey = key === '' ? null : key;
    this.isConfigured = this.apiKey !== null;
    this.baseUrl = options.baseUrl.trim().replace(/\/+$/, '');
    const timeouts = resolveTimeouts(options.timeouts, DEFAULT_CONTROL_PLANE_TIMEOUTS);
    this.ownedAgent =
      options.dispatcher === undefined ? new Agent({ connect: { timeout: timeouts.connectMs } }) : null;
    this.dispatcher = options.dispatcher ?? (this.ownedAgent as Agent);
    this.transport = new ControlPlaneTransport({
      apiKey: this.apiKey,
      baseUrl: this.baseUrl,
      dispatcher: this.dispatcher,
      timeouts,
      logger: options.logger ?? SILENT_LOGGER,
      onExchange: options.onExchange ?? (() => undefined),
    });
  }

  /** GET /billing/pods?bucketSize=hour&startTime&endTime&podId: one pod's hourly charges. */
  async podBilling(podId: string, window: BillingWindow, signal?: AbortSignal): Promise<PodBillingRead> {
    if (!this.isConfigured) return { kind: 'unreadable', reason: 'unconfigured' };
    const query = new URLSearchParams({ bucketSize: 'hour', ...window, podId });
    const outcome = await this.transport.call(
      'billing-pods',
      'GET',
      `/billing/pods?${query}`,
      undefined,
      signal,
    );
    return podBillingFromOutcome(outcome, podId);
  }

  /** GET /billing?bucketSize=day&startTime&endTime: the account's aggregate per day (storage among it). */
  async accountBilling(window: BillingWindow, signal?: AbortSignal): Promise<AccountBillingRead> {
    if (!this.isConfigured) return { kind: 'unreadable', reason: 'unconfigured' };
    const query = new URLSearchParams({ bucketSize: 'day', ...window });
    const outcome = await this.transport.call('billing', 'GET', `/billing?${query}`, undefined, signal);
    return accountBillingFromOutcome(outcome);
  }

  /** GET /pods/{id}/logs?tail=N: both sources, read until a bound is met (see PodLogBounds). */
  async podLogs(
    podId: string,
    bounds: PodLogBounds = DEFAULT_LOG_BOUNDS,
    signal?: AbortSignal,
  ): Promise<PodLogRead> {
    if (!this.isConfigured) return { kind: 'unreadable', reason: 'unconfigured' };
    const read = await readPodLogTail({
      dispatcher: this.dispatcher,
      url: `${this.baseUrl}/pods/${encodeURIComponent(podId)}/logs?tail=${Math.max(0, Math.min(5000, bounds.tail))}`,
      headers: { authorization: `Bearer ${this.apiKey ?? ''}`, accept: 'text/event-stream' },
      bounds,
      signal,
    });
    if (read.kind === 'unreadable')
      return { kind: 'unreadable', reason: redactSecret(read.reason, this.apiKey) };
    if (read.kind !== 'read') return read;
    // A template may print anything, our own key included: never carried further.
    return {
      ...read,
      lines: read.lines.map((line) => ({ ...line, line: redactSecret(line.line, this.apiKey) })),
    };
  }

  async close(): Promise<void> {
    await this.ownedAgent?.close();
  }
}
