import { Inject, Injectable } from '@nestjs/common';
import {
  MAX_MODEL_LIST_BYTES,
  isModelList,
  keptListAgeSeconds,
  type IdlePhase,
  type ProxyRequestKind,
} from '@podwarden/policies';
import { LOGGER, errorMessage, type AppLogger } from '@podwarden/platform';
import { notWokenError, unavailableError } from '../cold/cold-answers';
import { PodReadiness } from '../cold/pod-readiness';
import { ProxyWakes } from '../cold/proxy-wakes';
import type { Exchange } from '../exchange';
import type { Forwarder } from '../forward/forwarder';
import { ProxyMetrics } from '../metrics/proxy-metrics';
import { sendProxyError, type ProxyError } from '../openai-error';
import { FORWARDER } from '../proxy.tokens';
import { ModelListStore } from './model-list-store';

export type ReadKind = Exclude<ProxyRequestKind, 'model-work'>;

/**
 * Requests that make no model work never wake a pod nor count as activity: a ready pod answers them
 * (no lease, so the idle monitor never sees them); a cold pod's model list comes from the last one served,
 * anything else is 503.
 */
@Injectable()
export class ReadRequests {
  constructor(
    @Inject(LOGGER) private readonly logger: AppLogger,
    @Inject(FORWARDER) private readonly forwarder: Forwarder,
    private readonly readiness: PodReadiness,
    private readonly wakes: ProxyWakes,
    private readonly lists: ModelListStore,
    private readonly metrics: ProxyMetrics,
  ) {}

  async handle(exchange: Exchange, kind: ReadKind): Promise<void> {
    const { pod } = exchange;
    let readiness;
    try {
      readiness = await this.readiness.read(pod);
    } catch (error) {
      this.logger.warn({ pod: pod.name, err: errorMessage(error) }, 'proxy: readiness unreadable');
      return this.fail(
        exchange,
        unavailableError(pod.name, 'state_unreadable', 'pod state could not be read'),
      );
    }
    switch (readiness.kind) {
      case 'ready':
        return this.forward(exchange, kind, readiness.baseUrl);
      case 'unresolved':
        return this.fail(
          exchange,
          unavailableError(pod.name, 'pod_unresolved', "the pod's address could not be read"),
        );
      case 'cold':
        return this.cold(exchange, kind, readiness.phase);
    }
  }

  private async forward(exchange: Exchange, kind: ReadKind, baseUrl: string): Promise<void> {
    const { pod } = exchange;
    const copy = kind === 'model-list' ? new BoundedCopy(MAX_MODEL_LIST_BYTES) : null;
    const ending = await this.forwarder.forward({
      baseUrl,
      path: exchange.path,
      req: exchange.req,
      body: exchange.body,
      res: exchange.res,
      signal: exchange.signal,
      onFirstByte: () => undefined,
      onChunk: copy === null ? undefined : (chunk) => copy.add(chunk),
    });
    switch (ending.kind) {
      case 'not-serving':
        // The same verdict a model request would reach: cold for this boot, its wake no longer stands.
        await this.readiness.markNotServing(pod).catch(() => undefined);
        this.wakes.forget(pod);
        return this.cold(exchange, kind, 'Down');
      case 'unreachable':
        this.readiness.forget(pod);
        this.logger.warn({ pod: pod.name, err: ending.reason }, 'proxy: pod unreachable');
        return this.fail(exchange, {
          ...unavailableError(pod.name, 'pod_unreachable', `pod ${pod.name} did not answer`),
          status: 502,
        });
      case 'cut':
        this.metrics.count(pod.name, 'failed');
        return;
      case 'completed':
        this.metrics.count(pod.name, 'forwarded');
        if (copy !== null && ending.status === 200) await this.keep(exchange, copy.text());
    }
  }

  /** Keeps a list the pod served; a list that cannot be written is logged, the client already has it. */
  private async keep(exchange: Exchange, body: string | null): Promise<void> {
    const { pod } = exchange;
    if (body === null || !isModelList(body)) {
      this.logger.info({ pod: pod.name }, 'proxy: the model list the pod served is not kept (not a list)');
      return;
    }
    await this.lists
      .keep(pod, { body, servedAt: Date.now() })
      .catch((error: unknown) =>
        this.logger.warn({ pod: pod.name, err: errorMessage(error) }, 'proxy: model list not kept'),
      );
  }

  private async cold(exchange: Exchange, kind: ReadKind, phase: IdlePhase): Promise<void> {
    const { pod, res } = exchange;
    if (kind === 'metadata') return this.notWoken(exchange, phase, 'not-model-work');
    let kept;
    try {
      kept = await this.lists.read(pod);
    } catch (error) {
      this.logger.warn({ pod: pod.name, err: errorMessage(error) }, 'proxy: model list unreadable');
      return this.fail(
        exchange,
        unavailableError(pod.name, 'state_unreadable', 'the model list could not be read'),
      );
    }
    if (kept === null) return this.notWoken(exchange, phase, 'models-unknown');
    if (res.headersSent || res.destroyed) return;
    this.metrics.count(pod.name, 'listed');
    res.status(200);
    res.setHeader('Content-Type', 'application/json');
    // Age: how old the list is, as a cache says it (the pod is not asked).
    res.setHeader('Age', String(keptListAgeSeconds(kept, Date.now())));
    res.end(kept.body);
  }

  private notWoken(exchange: Exchange, phase: IdlePhase, why: 'models-unknown' | 'not-model-work'): void {
    this.metrics.count(exchange.pod.name, 'not-woken');
    sendProxyError(exchange.res, notWokenError(exchange.pod.name, phase, why));
  }

  private fail(exchange: Exchange, error: ProxyError): void {
    this.metrics.count(exchange.pod.name, 'failed');
    sendProxyError(exchange.res, error);
  }
}

/** The first `limit` bytes of an answer as it passes; null once it grew past them. */
class BoundedCopy {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size <= this.limit) this.chunks.push(Buffer.from(chunk));
  }

  text(): string | null {
    return this.size > this.limit ? null : Buffer.concat(this.chunks).toString('utf8');
  }
}
