import type { Provider } from '@nestjs/common';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  BudgetLedger,
  CONFIG,
  LOGGER,
  PendingStopStore,
  PodwardenMetrics,
  ReadyLog,
  ReadyTimes,
  StatusPublisher,
  WakeHistory,
  type AppLogger,
} from '@podwarden/platform';
import { IdleTickService } from './idle/idle-tick.service';
import { IdleTickDependencies, TICK_LIST_READERS, type TickListReader } from './idle/idle-tick-dependencies';
import { TickStatusEffects } from './idle/tick-status-effects';
import { OrphanReaper, OrphanReaperDependencies } from './idle/orphan-reaper';
import { StopConfirmer, StopConfirmerDependencies } from './idle/stop-confirmer';
import { StopIntentReconciler, StopIntentReconcilerDependencies } from './idle/stop-intent-reconciler';
import { CostMetrics } from './metrics/cost-metrics';

/** The idle tick and the readers of its one list: orphan sweep, confirmed stops, stop intents, costs. */
export const IDLE_TICK_PROVIDERS: Provider[] = [
  OrphanReaperDependencies,
  OrphanReaper,
  StopConfirmerDependencies,
  StopConfirmer,
  StopIntentReconcilerDependencies,
  StopIntentReconciler,
  {
    provide: CostMetrics,
    useFactory: (
      metrics: PodwardenMetrics,
      config: PodwardenConfig,
      ledger: BudgetLedger,
      pendingStops: PendingStopStore,
      reaper: OrphanReaper,
    ) =>
      new CostMetrics(metrics, {
        config,
        ledger,
        pendingStops,
        orphans: reaper.counts,
        now: () => Date.now(),
      }),
    inject: [PodwardenMetrics, CONFIG, BudgetLedger, PendingStopStore, OrphanReaper],
  },
  {
    provide: TickStatusEffects,
    useFactory: (
      config: PodwardenConfig,
      publisher: StatusPublisher,
      history: WakeHistory,
      readyTimes: ReadyTimes,
      readyLog: ReadyLog,
      logger: AppLogger,
    ) =>
      new TickStatusEffects({
        publisher,
        history,
        readyTimes,
        readyLog,
        logger,
        timeoutMs: config.tuning.redisWriteTimeoutMs,
      }),
    inject: [CONFIG, StatusPublisher, WakeHistory, ReadyTimes, ReadyLog, LOGGER],
  },
  {
    provide: TICK_LIST_READERS,
    useFactory: (...readers: TickListReader[]) => readers,
    inject: [CostMetrics, StopConfirmer, StopIntentReconciler],
  },
  IdleTickDependencies,
  IdleTickService,
];
