import { Injectable } from '@nestjs/common';
import { Counter, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The gateway's Prometheus registry. One per app instance rather than
 * prom-client's global one, so several apps in one process (tests) never
 * collide on metric names.
 */
@Injectable()
export class GatewayMetrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'podwarden_gateway_http_requests_total',
    help: 'HTTP requests answered by the gateway, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly wakeStarts = new Counter({
    name: 'podwarden_gateway_wake_starts_total',
    help: 'POST start answers by wake outcome (AlreadyRunning, Started, Created, Waiting, Failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'podwarden_gateway_' });
  }
}
