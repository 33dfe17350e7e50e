import type { Provider } from '@nestjs/common';
import type { PodwardenConfig } from '@podwarden/policies';
import type { RunPodClient } from '@podwarden/runpod-client';
import {
  ActionLog,
  BillableIntents,
  BudgetLedger,
  CONFIG,
  IdleStateStore,
  LOGGER,
  PendingStopStore,
  PodwardenMetrics,
  RUNPOD_CLIENT,
  ReadyLog,
  ReadyTimes,
  StatusPublisher,
  StopService,
  WakeHistory,
  type AppLogger,
} from '@podwarden/platform';
import { IdleTickService } from './idle/idle-tick.service';
import { IdleTickDependencies, TICK_LIST_READERS, type TickListReader } from './idle/idle-tick-dependencies';
import { TickStatusEffects } from './idle/tick-status-effects';
import { OrphanReaper } from './idle/orphan-reaper';
import { StopConfirmer } from './idle/stop-confirmer';
import { StopIntentReconciler } from './idle/stop-intent-reconciler';
import { CostMetrics } from './metrics/cost-metrics';

/** The idle tick and the readers of its one list: orphan sweep, confirmed stops, stop intents, costs. */
export const IDLE_TICK_PROVIDERS: Provider[] = [
  {
    provide: OrphanReaper,
    useFactory: (config: PodwardenConfig, client: RunPodClient, actions: ActionLog, logger: AppLogger) =>
      new OrphanReaper({ config, client, actions, logger, now: () => Date.now() }),
    inject: [CONFIG, RUNPOD_CLIENT, ActionLog, LOGGER],
  },
  {
    provide: StopConfirmer,
    useFactory: (
      config: PodwardenConfig,
      pending: PendingStopStore,
      locks: IdleStateStore,
      actions: ActionLog,
      stops: StopService,
      logger: AppLogger,
    ) => new StopConfirmer({ config, pending, locks, actions, stops, logger, now: () => Date.now() }),
    inject: [CONFIG, PendingStopStore, IdleStateStore, ActionLog, StopService, LOGGER],
  },
  {
    provide: StopIntentReconciler,
    useFactory: (config: PodwardenConfig, intents: BillableIntents, actions: ActionLog, logger: AppLogger) =>
      new StopIntentReconciler({ config, intents, actions, logger, now: () => Date.now() }),
    inject: [CONFIG, BillableIntents, ActionLog, LOGGER],
  },
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
