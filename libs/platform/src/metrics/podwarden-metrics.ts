import { Counter, Registry } from 'prom-client';
import type { RunPodExchange } from '@podwarden/runpod-client';

/**
 * The Prometheus registry every app shares through PlatformModule: its own
 * instance rather than prom-client's global one, so several apps in one
 * process (specs) never collide on a metric name. Holds what every app
 * measures (the RunPod requests); the workers and the gateway add theirs.
 */
export class PodwardenMetrics {
  readonly registry = new Registry();

  readonly runpodRequests = new Counter({
    name: 'podwarden_runpod_requests_total',
    help: 'Requests made to RunPod (control plane and the pod metrics scrape), by route and HTTP status ("timeout"/"error" when nothing answered)',
    labelNames: ['route', 'status'] as const,
    registers: [this.registry],
  });

  /** The RunPod client's hook: labels are the operation and the status only, never a URL, id or header. */
  readonly observeRunPod = (exchange: RunPodExchange): void => {
    this.runpodRequests.inc({ route: exchange.route, status: exchange.status });
  };
}
