/**
 * RunPod REST v2 and a pod's vLLM proxy: transport and JSON only, deciding nothing (docs/architecture.md).
 * Fails closed (a failed read is `unreadable`; only a problem-details 404 is absence), throws only on abort,
 * is a no-op without a key, and sends the key only in control-plane Authorization headers, scrubbed on read.
 */
import { Agent, type Dispatcher } from 'undici';
import type {
  CreatePodResult,
  GpuCatalogEntry,
  PodActivity,
  PodObservation,
  VolumeLookup,
} from '@podwarden/policies';
import { lookupVolume } from '@podwarden/policies';
import { catalogFromOutcome } from './catalog-json';
import {
  DEFAULT_CONTROL_PLANE_TIMEOUTS,
  DEFAULT_MAX_METRICS_BYTES,
  DEFAULT_METRICS_TIMEOUTS,
  SILENT_LOGGER,
  positiveOr,
  resolveTimeouts,
  type ExchangeTimeouts,
  type RunPodClientOptions,
  type RunPodLogger,
} from './client-options';
import { ControlPlaneTransport } from './control-plane-transport';
import { createPodBody, createResultFromOutcome, type CreatePodRequest } from './create-pod-json';
import type { HttpMethod } from './http-exchange';
import { actionResultFromOutcome, type PodActionResult } from './pod-action-result';
import { podListFromOutcome, type PodList } from './pod-list-json';
import { observationFromOutcome } from './pod-observation-json';
import { buildProxyUrl, metricsUrl } from './proxy-url';
import { scrapeVllmActivity } from './vllm-metrics-scrape';

export { BROWSER_USER_AGENT } from './vllm-metrics-scrape';

export const UNCONFIGURED = 'unconfigured';

export class RunPodClient {
  /** False while the API key is missing or blank: the safe boot state before the secret is mounted. */
  readonly isConfigured: boolean;

  private readonly proxyUrlTemplate: string;
  private readonly metricsTimeouts: ExchangeTimeouts;
  private readonly maxMetricsBytes: number;
  private readonly logger: RunPodLogger;
  private readonly dispatcher: Dispatcher;
  private readonly ownedAgent: Agent | null;
  private readonly now: () => number;
  private readonly transport: ControlPlaneTransport;

  constructor(options: RunPodClientOptions) {
    const key = options.apiKey?.trim() ?? '';
    const apiKey = key === '' ? null : key;
    this.isConfigured = apiKey !== null;
    this.proxyUrlTemplate = options.proxyUrlTemplate.trim();
    const controlPlaneTimeouts = resolveTimeouts(options.timeouts, DEFAULT_CONTROL_PLANE_TIMEOUTS);
    this.metricsTimeouts = resolveTimeouts(options.metricsTimeouts, DEFAULT_METRICS_TIMEOUTS);
    this.maxMetricsBytes = positiveOr(options.maxMetricsBytes, DEFAULT_MAX_METRICS_BYTES);
    this.logger = options.logger ?? SILENT_LOGGER;
    this.now = options.now ?? Date.now;
    if (options.dispatcher !== undefined) {
      this.dispatcher = options.dispatcher;
      this.ownedAgent = null;
    } else {
      this.ownedAgent = new Agent({
        connect: { timeout: controlPlaneTimeouts.connectMs },
        headersTimeout: controlPlaneTimeouts.headersMs,
        bodyTimeout: controlPlaneTimeouts.bodyMs,
      });
      this.dispatcher = this.ownedAgent;
    }
    this.transport = new ControlPlaneTransport({
      apiKey,
      baseUrl: options.baseUrl.trim().replace(/\/+$/, ''),
      dispatcher: this.dispatcher,
      timeouts: controlPlaneTimeouts,
      logger: this.logger,
      onExchange: options.onExchange ?? (() => undefined),
    });
  }

  /** GET /catalog/gpus?include=AVAILABILITY&product=POD (product is required with the include). Empty on any failure. */
  async getCatalog(signal?: AbortSignal): Promise<GpuCatalogEntry[]> {
    if (!this.isConfigured) {
      return [];
    }
    const outcome = await this.transport.call(
      'catalog',
      'GET',
      '/catalog/gpus?include=AVAILABILITY&product=POD',
      undefined,
      signal,
    );
    return catalogFromOutcome(outcome);
  }

  /** GET /pods/{id}. */
  async observePod(podId: string, signal?: AbortSignal): Promise<PodObservation> {
    if (!this.isConfigured) {
      return { kind: 'unreadable', podId, reason: UNCONFIGURED };
    }
    const outcome = await this.transport.call('observe', 'GET', podPath(podId), undefined, signal);
    return observationFromOutcome(podId, outcome);
  }

  /** GET /pods: every pod on the account (v2 has no volume filter). */
  async listPods(signal?: AbortSignal): Promise<PodList> {
    if (!this.isConfigured) {
      return { kind: 'unreadable', reason: UNCONFIGURED };
    }
    const outcome = await this.transport.call('list', 'GET', '/pods', undefined, signal);
    const list = podListFromOutcome(outcome);
    if (list.kind === 'unreadable') {
      this.logger.warn({ op: 'list', reason: list.reason }, 'runpod pod list unreadable');
    }
    return list;
  }

  /** One list call filtered client-side; the list comes back too so one call can serve several volumes. */
  async lookupByVolume(
    volumeId: string,
    signal?: AbortSignal,
  ): Promise<{ lookup: VolumeLookup; list: PodList }> {
    const list = await this.listPods(signal);
    const lookup = lookupVolume(list, volumeId);
    if (lookup.kind === 'found' && lookup.podIds.length > 1) {
      this.logger.warn({ op: 'lookup', volumeId, podIds: lookup.podIds }, 'more than one pod on the volume');
    }
    return { lookup, list };
  }

  /** POST /pods. Returns the raw status for the create-outcome policy; 0 when nothing answered. */
  async createPod(req: CreatePodRequest, signal?: AbortSignal): Promise<CreatePodResult> {
    if (!this.isConfigured) {
      return { httpStatus: 0, podId: null, retryAfterSeconds: null, detail: UNCONFIGURED };
    }
    const outcome = await this.transport.call('create', 'POST', '/pods', createPodBody(req), signal);
    return createResultFromOutcome(outcome, this.now());
  }

  /** POST /pods/{id}/action {"action":"start"}. */
  startPod(podId: string, signal?: AbortSignal): Promise<PodActionResult> {
    return this.podAction(
      'start',
      'POST',
      `${podPath(podId)}/action`,
      JSON.stringify({ action: 'start' }),
      signal,
    );
  }

  /** POST /pods/{id}/action {"action":"stop"}. */
  stopPod(podId: string, signal?: AbortSignal): Promise<PodActionResult> {
    return this.podAction(
      'stop',
      'POST',
      `${podPath(podId)}/action`,
      JSON.stringify({ action: 'stop' }),
      signal,
    );
  }

  /** DELETE /pods/{id}. */
  terminatePod(podId: string, signal?: AbortSignal): Promise<PodActionResult> {
    return this.podAction('terminate', 'DELETE', podPath(podId), undefined, signal);
  }

  /** The pod's public proxy base, also what the status route reports. */
  proxyUrl(podId: string, port: number): string {
    return buildProxyUrl(this.proxyUrlTemplate, podId, port);
  }

  /**
   * GET {proxy}/metrics: one scrape of vLLM. null whenever the scrape did not
   * reach vLLM (see scrapeVllmActivity); null while unconfigured.
   */
  async getActivity(podId: string, port: number, signal?: AbortSignal): Promise<PodActivity | null> {
    if (!this.isConfigured) {
      return null;
    }
    return scrapeVllmActivity({
      dispatcher: this.dispatcher,
      url: metricsUrl(this.proxyUrl(podId, port)),
      timeouts: this.metricsTimeouts,
      maxBodyBytes: this.maxMetricsBytes,
      // Every scrape is one exchange: reported for metrics, then scrubbed.
      scrub: (outcome) => this.transport.readBack('metrics', outcome),
      logger: this.logger,
      logContext: { op: 'metrics', podId, port },
      signal,
    });
  }

  /** Closes the connection pool the client created; an injected dispatcher belongs to its owner. */
  async close(): Promise<void> {
    await this.ownedAgent?.close();
  }

  private async podAction(
    op: string,
    method: HttpMethod,
    path: string,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<PodActionResult> {
    if (!this.isConfigured) {
      return { ok: false, httpStatus: 0, detail: UNCONFIGURED };
    }
    return actionResultFromOutcome(await this.transport.call(op, method, path, body, signal));
  }
}

/** Pod ids are path-escaped: an id carrying '/' or '?' must not address another resource. */
function podPath(podId: string): string {
  return `/pods/${encodeURIComponent(podId)}`;
}
