import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import {
  billingPerVolume,
  fromMicros,
  isPodConfigured,
  type PodConfig,
  type PodList,
  type PodwardenConfig,
  statusesPerVolume,
  type VolumeBilling,
  type VolumeStatus,
} from '@podwarden/policies';
import { BudgetLedger, CONFIG, PendingStopStore, PodwardenMetrics, CLOCK } from '@podwarden/platform';
import type { TickListReader } from '../idle/idle-tick-dependencies';
import { OrphanReaper, type OrphanCounts } from '../idle/orphan-reaper';

/** Nest builds it from its tokens; specs pass a plain object of this shape. */
@Injectable()
export class CostMetricsSources {
  /** The orphan reaper's running totals since start-up. */
  readonly orphans: OrphanCounts;

  constructor(
    @Inject(CONFIG) readonly config: PodwardenConfig,
    @Inject(BudgetLedger) readonly ledger: Pick<BudgetLedger, 'figures'>,
    @Inject(PendingStopStore) readonly pendingStops: Pick<PendingStopStore, 'unconfirmed'>,
    @Inject(OrphanReaper) reaper: Pick<OrphanReaper, 'counts'>,
    @Inject(CLOCK) readonly now: () => number,
  ) {
    this.orphans = reaper.counts;
  }
}

/**
 * Money on /metrics: what bills (this replica's newest readable tick list), today's spend and unconfirmed
 * stops (read from Redis per scrape, so every replica agrees). A failed read reports NaN, never zero.
 */
@Injectable()
export class CostMetrics implements TickListReader {
  private census: readonly VolumeBilling[] = [];
  private statuses: readonly VolumeStatus[] = [];

  constructor(
    @Inject(PodwardenMetrics) shared: PodwardenMetrics,
    @Inject(CostMetricsSources) sources: CostMetricsSources,
  ) {
    const registers = [shared.registry];
    const census = (): readonly VolumeBilling[] => this.census;
    const statuses = (): readonly VolumeStatus[] => this.statuses;
    const configured = sources.config.pods.filter((pod) => isPodConfigured(sources.config, pod));
    new Gauge({
      name: 'podwarden_pods_billing',
      help: 'Pods on each configured volume the newest readable tick list shows billing compute (not EXITED/TERMINATED; an unknown status counts), by configured pod and volume',
      labelNames: ['pod', 'volume'] as const,
      registers,
      collect() {
        for (const entry of census()) this.set({ pod: entry.pod, volume: entry.volume }, entry.billing);
      },
    });
    new Gauge({
      name: 'podwarden_pods_by_status',
      help: 'Pods on each configured volume by the RunPod status the newest readable tick list shows (UNKNOWN when it gives none), by configured pod, volume and status',
      labelNames: ['pod', 'volume', 'status'] as const,
      registers,
      collect() {
        // A status no pod is in any more must leave the exposition, not stay at its last count.
        this.reset();
        for (const entry of statuses())
          this.set({ pod: entry.pod, volume: entry.volume, status: entry.status }, entry.count);
      },
    });
    new Gauge({
      name: 'podwarden_spend_today_usd',
      help: "Today's (UTC) estimated spend across every pod: settled runs plus open runs priced by their uptime so far (price × observed uptime, not RunPod's bill); NaN when the ledger is unreadable",
      registers,
      async collect() {
        this.set(
          await orNaN(async () => {
            const figures = await sources.ledger.figures(sources.now());
            return fromMicros(figures.spentMicros + figures.accruingMicros);
          }),
        );
      },
    });
    const budget = sources.config.dailyBudgetUsd;
    // The ceiling beside the spend, so an alert or a panel can compare the two; absent when off.
    if (budget !== null)
      new Gauge({
        name: 'podwarden_daily_budget_usd',
        help: 'DAILY_BUDGET_USD, the daily spend ceiling (absent when the budget is off), to compare with podwarden_spend_today_usd',
        registers,
        collect() {
          this.set(budget);
        },
      });
    new Gauge({
      name: 'podwarden_budget_reserved_usd',
      help: 'Open daily-budget reservations (the worst case of each wake until its run is settled); NaN when the ledger is unreadable',
      registers,
      async collect() {
        this.set(
          await orNaN(async () => fromMicros((await sources.ledger.figures(sources.now())).reservedMicros)),
        );
      },
    });
    new Counter({
      name: 'podwarden_orphans_found_total',
      help: 'Orphans (prefixed pods on no configured volume, past ORPHAN_GRACE_MINUTES) this replica found, once per tick that saw each',
      registers,
      collect() {
        this.reset();
        this.inc(sources.orphans.found);
      },
    });
    new Counter({
      name: 'podwarden_orphans_terminated_total',
      help: 'Orphans this replica terminated (RunPod accepted the termination)',
      registers,
      collect() {
        this.reset();
        this.inc(sources.orphans.terminated);
      },
    });
    new Gauge({
      name: 'podwarden_stops_unconfirmed',
      help: 'Accepted stops no tick has yet seen take effect (pod not yet EXITED, TERMINATED or gone), across every configured pod; NaN when Redis is unreadable',
      registers,
      async collect() {
        this.set(await orNaN(() => sources.pendingStops.unconfirmed(configured.map((pod) => pod.name))));
      },
    });
  }

  /** A tick reader: the census follows the newest readable list; an unreadable one leaves the last. */
  read(pods: readonly PodConfig[], list: PodList): Promise<void> {
    const census = billingPerVolume(list, pods);
    if (census !== null) this.census = census;
    const statuses = statusesPerVolume(list, pods);
    if (statuses !== null) this.statuses = statuses;
    return Promise.resolve();
  }
}

async function orNaN(read: () => Promise<number>): Promise<number> {
  try {
    return await read();
  } catch {
    return Number.NaN;
  }
}
