import { Counter, Gauge } from 'prom-client';
import type { SchedulerPresence } from '@podwarden/policies';
import type { PodwardenMetrics, ReadinessItem, WorkerState } from '@podwarden/platform';

export interface SchedulerHealthSources {
  /** Read live at each probe and scrape, so every replica reports what Redis holds now. */
  readonly presence: () => Promise<SchedulerPresence>;
  /** Schedulers this replica restored since start-up. */
  readonly restored: () => number;
}

/**
 * The idle ticks' scheduler on readiness and /metrics: without it in Redis no
 * tick runs and pods bill unwatched, while everything else looks healthy.
 */
export class SchedulerHealth {
  constructor(
    shared: PodwardenMetrics,
    state: Pick<WorkerState, 'addCheck'>,
    sources: SchedulerHealthSources,
  ) {
    const registers = [shared.registry];
    new Gauge({
      name: 'podwarden_idle_scheduler_present',
      help: "1 while the idle ticks' job scheduler and its next job are in Redis, 0 when missing (no tick runs until a monitor restores it), NaN when Redis is unreadable; read at each scrape",
      registers,
      async collect() {
        this.set(presenceValue(await sources.presence()));
      },
    });
    new Counter({
      name: 'podwarden_idle_scheduler_restored_total',
      help: "Times this replica found the idle ticks' job scheduler missing from Redis (emptied, flushed, failed over) and restored it",
      registers,
      collect() {
        this.reset();
        this.inc(sources.restored());
      },
    });
    state.addCheck('scheduler', async () => readiness(await sources.presence()));
  }
}

function presenceValue(presence: SchedulerPresence): number {
  if (presence === 'unknown') return Number.NaN;
  return presence === 'present' ? 1 : 0;
}

function readiness(presence: SchedulerPresence): ReadinessItem {
  if (presence === 'present') return { up: true, details: { presence } };
  const message =
    presence === 'missing'
      ? 'the idle tick scheduler is missing from Redis: no idle tick runs until it is restored'
      : 'the idle tick scheduler could not be read from Redis';
  return { up: false, details: { presence, message } };
}
