import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { isPodConfigured, type PodwardenConfig } from '@podwarden/policies';
import { CONFIG, PodwardenMetrics, RhythmStore } from '@podwarden/platform';
import type { PrewakeOutcome } from '../rhythm/rhythm-keeper';

/**
 * Each pod's idle window and its pre-wakes' outcomes on /metrics. The window is read from Redis per scrape
 * (the last tick's, any replica), so replicas agree; a fixed pod reports IDLE_MINUTES; NaN when unreadable.
 */
@Injectable()
export class RhythmMetrics {
  private readonly prewakes: Counter<'pod' | 'outcome'>;

  constructor(
    @Inject(PodwardenMetrics) shared: PodwardenMetrics,
    @Inject(CONFIG) config: PodwardenConfig,
    @Inject(RhythmStore) rhythms: Pick<RhythmStore, 'snapshot'>,
  ) {
    const registers = [shared.registry];
    const pods = config.pods.filter((pod) => isPodConfigured(config, pod));
    new Gauge({
      name: 'podwarden_idle_window_minutes',
      help: "The idle window in force per pod, by policy (fixed: IDLE_MINUTES; adaptive: the learned window, or a pre-woken pod's short one); NaN when unreadable",
      labelNames: ['pod', 'policy'] as const,
      registers,
      async collect() {
        for (const pod of pods) {
          if (pod.idlePolicy !== 'adaptive') {
            this.set({ pod: pod.name, policy: 'fixed' }, pod.idleMinutes);
            continue;
          }
          const snapshot = await rhythms.snapshot(pod.name).catch(() => undefined);
          this.set(
            { pod: pod.name, policy: 'adaptive' },
            snapshot === undefined ? NaN : (snapshot?.inForce.minutes ?? pod.idleMinutes),
          );
        }
      },
    });
    this.prewakes = new Counter({
      name: 'podwarden_prewakes_total',
      help: 'Pre-wakes this replica fired, and how they ended: hit (someone used the pod) or miss (stopped unused)',
      labelNames: ['pod', 'outcome'] as const,
      registers,
    });
    for (const pod of pods.filter((p) => p.idlePolicy === 'adaptive')) {
      for (const outcome of ['fired', 'hit', 'miss'] as const)
        this.prewakes.inc({ pod: pod.name, outcome }, 0);
    }
  }

  readonly count = (pod: string, outcome: PrewakeOutcome): void => {
    this.prewakes.inc({ pod, outcome });
  };
}
