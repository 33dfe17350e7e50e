import { Gauge } from 'prom-client';
import { monitorSetupWarning, type MonitorSetup } from '@podwarden/policies';
import type { PodwardenMetrics, ReadinessItem, WorkerState } from '@podwarden/platform';

/**
 * An idle monitor without a RunPod key or a volume ticks and skips every pod
 * it cannot call RunPod for: its readiness and /metrics say so.
 */
export class SetupHealth {
  constructor(shared: PodwardenMetrics, state: Pick<WorkerState, 'addCheck'>, setup: MonitorSetup) {
    new Gauge({
      name: 'podwarden_idle_monitor_configured',
      help: '1 when this idle monitor watches every configured pod (RUNPOD_API_KEY set, every pod has a volume), 0 when it skips some or all',
      registers: [shared.registry],
      collect() {
        this.set(setup.configured ? 1 : 0);
      },
    });
    const item = readiness(setup);
    state.addCheck('configured', () => Promise.resolve(item));
  }
}

function readiness(setup: MonitorSetup): ReadinessItem {
  const warning = monitorSetupWarning(setup);
  if (warning === null) return { up: true, details: { watched: setup.watched } };
  return { up: false, details: { message: warning, missing: setup.missing, watched: setup.watched } };
}
