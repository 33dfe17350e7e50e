import { Counter, Registry } from 'prom-client';
import type { RunPodExchange } from '@podwarden/runpod-client';

/**
 * The Prometheus registry every app shares through PlatformCoreModule: its own, not prom-client's global, so
 * apps in one process (specs) never collide on a name. Holds the RunPod requests; apps add theirs.
 */
export class PodwardenMetrics {
  readonly registry = new Registry();

  readonly runpodRequests = new Counter({
    name: 'podwarden_runpod_requests_total',
    help: 'Requests made to RunPod (control plane and the pod metrics scrape), by route and HTTP status ("timeout"/"error" when nothing answered)',
    labelNames: ['route', 'status'] as const,
    registers: [this.registry],
  });

  readonly stopActions = new Counter({
    name: 'podwarden_stop_actions_total',
    help: 'Stops and terminations this process sent through the stop service, by trigger (manual, idle, boot-grace, runtime-cap, error), action (Stop, Terminate) and outcome (accepted, refused: any answer but a 2xx)',
    labelNames: ['trigger', 'action', 'outcome'] as const,
    registers: [this.registry],
  });

  /** The stop service's hook: one count per stop or terminate call it sent. */
  readonly countStopAction = (action: 'Stop' | 'Terminate', trigger: string, accepted: boolean): void => {
    this.stopActions.inc({ trigger, action, outcome: accepted ? 'accepted' : 'refused' });
  };

  /** The RunPod client's hook: labels are the operation and the status only, never a URL, id or header. */
  readonly observeRunPod = (exchange: RunPodExchange): void => {
    this.runpodRequests.inc({ route: exchange.route, status: exchange.status });
  };
}
