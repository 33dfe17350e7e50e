import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  classifyProxyRequest,
  decideColdRequest,
  findPod,
  isPodConfigured,
  type IdlePhase,
  type PodConfig,
  type PodwardenConfig,
} from '@podwarden/policies';
import { CONFIG, LOGGER, errorMessage, type AppLogger } from '@podwarden/platform';
import { shedError, unavailableError, wakeFailedError, type ShedContext } from './cold/cold-answers';
import { HeldRequests, type HoldEnding } from './cold/held-requests';
import { PodReadiness } from './cold/pod-readiness';
import { ProxyWakes } from './cold/proxy-wakes';
import { ShedEstimates } from './cold/shed-estimates';
import type { Exchange } from './exchange';
import { ActivityPublisher } from './forward/activity-publisher';
import { Forwarder, type ForwardEnding } from './forward/forwarder';
import { readRequestBody } from './forward/request-body';
import { ProxyMetrics } from './metrics/proxy-metrics';
import { sendProxyError, type ProxyError } from './openai-error';
import { checkClientToken } from './proxy-auth';
import { FORWARDER } from './proxy.tokens';
import { ReadRequests } from './reads/read-requests';

/** In shed mode a cold request still waits this long for its wake's verdict, so a refusal is named at once. */
export const SHED_GLANCE_MS = 1000;

/**
 * One request: name (404), client token (401/503, first), body, then what it asks: no model work goes to
 * ReadRequests (never wakes or counts); model work is forwarded to a ready pod or wakes a cold one and is
 * held or shed.
 */
@Injectable()
export class ProxyRequestHandler {
  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    @Inject(FORWARDER) private readonly forwarder: Forwarder,
    private readonly readiness: PodReadiness,
    private readonly wakes: ProxyWakes,
    private readonly held: HeldRequests,
    private readonly estimates: ShedEstimates,
    private readonly activity: ActivityPublisher,
    private readonly metrics: ProxyMetrics,
    private readonly reads: ReadRequests,
  ) {}

  async handle(name: string, path: string, req: Request, res: Response): Promise<void> {
    const arrival = Date.now();
    const pod = findPod(this.config, name);
    // The metric label is fixed: a caller must not mint label values with made-up names.
    if (pod === null) return this.reject(res, '(unknown)', 404, 'pod_not_found', 'no pod by that name');
    const auth = checkClientToken(pod, req.headers.authorization);
    if (auth === 'unconfigured') {
      const message = `the inference proxy has no client token for pod ${pod.name} (RIG_INFERENCE_TOKEN)`;
      return this.reject(res, pod.name, 503, 'proxy_unconfigured', message);
    }
    if (auth === 'denied') {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return this.reject(res, pod.name, 401, 'invalid_api_key', 'missing or wrong bearer token');
    }
    if (!isPodConfigured(this.config, pod)) {
      return this.reject(res, pod.name, 503, 'pod_unconfigured', `pod ${pod.name} is not configured`);
    }
    const read = await readRequestBody(req);
    if (!read.ok) {
      if (read.tooLarge) this.reject(res, pod.name, 413, 'body_too_large', 'request body too large');
      return;
    }
    const aborts = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborts.abort();
    });
    const exchange = { pod, req, res, path, body: read.body, arrival, signal: aborts.signal };
    const kind = classifyProxyRequest(req.method, path);
    if (kind !== 'model-work') return this.reads.handle(exchange, kind);
    await this.route(exchange);
  }

  private async route(exchange: Exchange): Promise<void> {
    const { pod, res } = exchange;
    let readiness;
    try {
      readiness = await this.readiness.read(pod);
    } catch (error) {
      this.logger.warn({ pod: pod.name, err: errorMessage(error) }, 'proxy: readiness unreadable');
      return this.fail(exchange, this.unavailable(pod, 'state_unreadable', 'pod state could not be read'));
    }
    if (readiness.kind === 'ready') return this.forward(exchange, readiness.baseUrl);
    if (readiness.kind === 'unresolved') {
      return this.fail(
        exchange,
        this.unavailable(pod, 'pod_unresolved', "the pod's address could not be read"),
      );
    }
    let attemptId: string;
    try {
      attemptId = await this.wakes.ensure(pod);
    } catch (error) {
      this.logger.warn({ pod: pod.name, err: errorMessage(error) }, 'proxy: wake could not be queued');
      return this.fail(exchange, this.unavailable(pod, 'queue_unavailable', 'the wake queue is unreachable'));
    }
    if (res.destroyed) return;
    await this.cold(exchange, readiness.phase, attemptId);
  }

  private async cold(exchange: Exchange, phase: IdlePhase, attemptId: string): Promise<void> {
    const { pod } = exchange;
    const decision = decideColdRequest(pod.proxyHoldSeconds, this.held.count(pod), this.config.proxy.maxHeld);
    const holdMs = decision.kind === 'hold' ? decision.holdMs : SHED_GLANCE_MS;
    if (decision.kind === 'hold') this.metrics.count(pod.name, 'held');
    const ending = await this.held.hold(pod, holdMs, exchange.signal, attemptId);
    if (decision.kind === 'hold') {
      const seconds = (Date.now() - exchange.arrival) / 1000;
      this.metrics.holdSeconds.observe({ pod: pod.name, ending: ending.kind }, seconds);
    }
    const why = decision.kind === 'hold' ? 'hold-timeout' : decision.why;
    await this.afterHold(exchange, ending, { phase, attemptId, why });
  }

  private async afterHold(
    exchange: Exchange,
    ending: HoldEnding,
    context: Pick<ShedContext, 'phase' | 'attemptId' | 'why'>,
  ): Promise<void> {
    const { pod } = exchange;
    switch (ending.kind) {
      case 'ready':
        return this.forward(exchange, ending.baseUrl);
      case 'failed':
        this.logger.info(
          { pod: pod.name, attemptId: context.attemptId },
          'proxy: wake failed; held request released',
        );
        return this.fail(
          exchange,
          wakeFailedError(pod.name, context.attemptId ?? '', ending.refused, ending.message),
        );
      case 'aborted':
        this.logger.info({ pod: pod.name }, 'proxy: client left while held; dropped');
        return;
      case 'timeout': {
        const estimate = await this.estimates.estimate(pod, context.attemptId);
        this.metrics.count(pod.name, 'shed');
        sendProxyError(exchange.res, shedError({ pod: pod.name, ...context, ...estimate }));
      }
    }
  }

  private async forward(exchange: Exchange, baseUrl: string): Promise<void> {
    const { pod } = exchange;
    const ending = await this.forwardOnce(exchange, baseUrl);
    switch (ending.kind) {
      case 'not-serving':
        // Outside the activity window: a request held again is not work the pod is doing.
        await this.readiness.markNotServing(pod).catch(() => undefined);
        this.wakes.forget(pod);
        return this.notServing(exchange, ending.status);
      case 'unreachable': {
        this.readiness.forget(pod);
        this.logger.warn({ pod: pod.name, err: ending.reason }, 'proxy: pod unreachable');
        const error = this.unavailable(pod, 'pod_unreachable', `pod ${pod.name} did not answer`);
        return this.fail(exchange, { ...error, status: 502 });
      }
      default:
        this.metrics.count(pod.name, ending.kind === 'completed' ? 'forwarded' : 'failed');
    }
  }

  /** One forward, published as activity from its start to its end. */
  private async forwardOnce(exchange: Exchange, baseUrl: string): Promise<ForwardEnding> {
    const { pod } = exchange;
    const requestId = randomUUID();
    await this.activity.begin(pod.name, requestId);
    try {
      return await this.forwarder.forward({
        baseUrl,
        path: exchange.path,
        req: exchange.req,
        body: exchange.body,
        res: exchange.res,
        signal: exchange.signal,
        onFirstByte: () =>
          this.metrics.timeToFirstByte.observe({ pod: pod.name }, (Date.now() - exchange.arrival) / 1000),
      });
    } finally {
      await this.activity.end(pod.name, requestId, exchange.arrival);
    }
  }

  /** Cold after all: the request goes the cold way once (wake, hold or shed); a second bounce is a 502. */
  private async notServing(exchange: Exchange, status: number): Promise<void> {
    const { pod } = exchange;
    this.logger.info({ pod: pod.name, status }, 'proxy: the pod is not serving although recorded ready');
    if (exchange.bounced) {
      const error = this.unavailable(pod, 'pod_not_serving', `pod ${pod.name} is not serving`);
      return this.fail(exchange, { ...error, status: 502 });
    }
    await this.route({ ...exchange, bounced: true });
  }

  private unavailable(pod: PodConfig, code: string, message: string): ProxyError {
    return unavailableError(pod.name, code, message);
  }

  private fail(exchange: Exchange, error: ProxyError): void {
    this.metrics.count(exchange.pod.name, 'failed');
    sendProxyError(exchange.res, error);
  }

  private reject(res: Response, pod: string, status: number, code: string, message: string): void {
    this.metrics.count(pod, 'rejected');
    sendProxyError(res, { status, type: code, code, message });
  }
}
