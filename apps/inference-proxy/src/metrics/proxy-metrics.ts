import { Injectable } from '@nestjs/common';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * How a request through the proxy ended (a held request is counted as held, then as how it ended).
 * A read of a cold pod is `listed` (its model list answered from the last one served) or `not-woken` (503).
 */
export type ProxyOutcome = 'forwarded' | 'held' | 'shed' | 'failed' | 'rejected' | 'listed' | 'not-woken';

/** The proxy's Prometheus registry (one per app instance, like the gateway's). */
@Injectable()
export class ProxyMetrics {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'podwarden_proxy_requests_total',
    help: 'Inference requests by pod and outcome (forwarded, held, shed, failed, rejected: 401/404/503 before any wake; listed, not-woken: reads of a cold pod)',
    labelNames: ['pod', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly holdSeconds = new Histogram({
    name: 'podwarden_proxy_hold_seconds',
    help: 'How long a request was held for a cold pod, by pod and how the hold ended',
    labelNames: ['pod', 'ending'] as const,
    buckets: [0.5, 1, 5, 15, 30, 60, 120, 300, 600],
    registers: [this.registry],
  });

  readonly timeToFirstByte = new Histogram({
    name: 'podwarden_proxy_time_to_first_byte_seconds',
    help: "From the request's arrival (hold included) to the first byte of the pod's answer, by pod",
    labelNames: ['pod'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'podwarden_proxy_' });
  }

  count(pod: string, outcome: ProxyOutcome): void {
    this.requests.inc({ pod, outcome });
  }
}
