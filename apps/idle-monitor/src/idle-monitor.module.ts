import { Module, type DynamicModule } from '@nestjs/common';
import type { PodwardenConfig } from '@podwarden/policies';
import type { RunPodClient } from '@podwarden/runpod-client';
import {
  ActionLog,
  BillableIntents,
  BudgetLedger,
  CONFIG,
  WorkerHealthModule,
  IDLE_TICK_QUEUE,
  IdleStateStore,
  KeepAliveStore,
  LOGGER,
  PendingStopStore,
  PlatformModule,
  PodwardenMetrics,
  ProxyActivityStore,
  PodEventPublisher,
  QueuesModule,
  RUNPOD_CLIENT,
  ReadyLog,
  ReadyTimes,
  StatusPublisher,
  StopService,
  WakeHistory,
  configureProcessor,
  type AppLogger,
  type AppStart,
} from '@podwarden/platform';
import { IdleTickService } from './idle/idle-tick.service';
import { TickStatusEffects } from './idle/tick-status-effects';
import { OrphanReaper } from './idle/orphan-reaper';
import { StopConfirmer } from './idle/stop-confirmer';
import { StopIntentReconciler } from './idle/stop-intent-reconciler';
import { CostMetrics } from './metrics/cost-metrics';
import { IdleTickProcessor } from './idle-tick.processor';
import { IdleTickSchedulerService } from './idle-tick-scheduler.service';

/** A tick's job lock outlasts two ticks, and at least 30 s, so a slow tick is not taken for a stalled one. */
export function idleTickLockMs(config: PodwardenConfig): number {
  return Math.max(30_000, config.checkSeconds * 2000);
}

@Module({})
export class IdleMonitorModule {
  static forRoot(start: AppStart): DynamicModule {
    // One tick at a time per replica; a stalled tick is re-delivered once (its re-run is recognised by its id).
    configureProcessor(IdleTickProcessor, IDLE_TICK_QUEUE, {
      concurrency: 1,
      lockDuration: idleTickLockMs(start.config),
      maxStalledCount: 1,
    });
    return {
      module: IdleMonitorModule,
      imports: [
        PlatformModule.forRoot(start),
        QueuesModule.forRoot(IDLE_TICK_QUEUE),
        WorkerHealthModule.forRoot({ app: 'idle-monitor', ticks: true }),
      ],
      providers: [
        {
          provide: OrphanReaper,
          useFactory: (
            config: PodwardenConfig,
            client: RunPodClient,
            actions: ActionLog,
            logger: AppLogger,
          ) => new OrphanReaper({ config, client, actions, logger, now: () => Date.now() }),
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
          useFactory: (
            config: PodwardenConfig,
            intents: BillableIntents,
            actions: ActionLog,
            logger: AppLogger,
          ) => new StopIntentReconciler({ config, intents, actions, logger, now: () => Date.now() }),
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
          provide: IdleTickService,
          useFactory: (
            config: PodwardenConfig,
            client: RunPodClient,
            store: IdleStateStore,
            stops: StopService,
            keepAlives: KeepAliveStore,
            logger: AppLogger,
            proxyActivity: ProxyActivityStore,
            events: PodEventPublisher,
            publisher: StatusPublisher,
            history: WakeHistory,
            readyTimes: ReadyTimes,
            readyLog: ReadyLog,
            orphans: OrphanReaper,
            ledger: BudgetLedger,
            confirmations: StopConfirmer,
            stopIntents: StopIntentReconciler,
            costs: CostMetrics,
          ) =>
            new IdleTickService({
              config,
              client,
              store,
              stops,
              keepAlives,
              logger,
              proxyActivity,
              events,
              orphans,
              ledger,
              listReaders: [costs, confirmations, stopIntents],
              now: () => Date.now(),
              status: new TickStatusEffects({
                publisher,
                history,
                readyTimes,
                readyLog,
                logger,
                timeoutMs: config.tuning.redisWriteTimeoutMs,
              }),
            }),
          inject: [
            CONFIG,
            RUNPOD_CLIENT,
            IdleStateStore,
            StopService,
            KeepAliveStore,
            LOGGER,
            ProxyActivityStore,
            PodEventPublisher,
            StatusPublisher,
            WakeHistory,
            ReadyTimes,
            ReadyLog,
            OrphanReaper,
            BudgetLedger,
            StopConfirmer,
            StopIntentReconciler,
            CostMetrics,
          ],
        },
        IdleTickProcessor,
        IdleTickSchedulerService,
      ],
    };
  }
}
