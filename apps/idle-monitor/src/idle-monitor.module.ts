import { Module, type DynamicModule } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { monitorSetup, type PodwardenConfig } from '@podwarden/policies';
import {
  BILLING_RECONCILE_QUEUE,
  BillingModule,
  BudgetModule,
  CONFIG,
  DiagnosisModule,
  EventsModule,
  IDLE_TICK_QUEUE,
  IdleModule,
  LOGGER,
  PlatformCoreModule,
  PodwardenMetrics,
  ProxyActivityModule,
  QueuesModule,
  RecordsModule,
  StatusModule,
  StopModule,
  UsageModule,
  WAKE_QUEUE,
  WorkerHealthModule,
  WorkerState,
  configureProcessor,
  type AppLogger,
  type AppStart,
} from '@podwarden/platform';
import { SchedulerHealth } from './metrics/scheduler-health';
import { SetupHealth } from './metrics/setup-health';
import { TickScheduler } from './scheduler/tick-scheduler';
import { IdleTickProcessor } from './idle-tick.processor';
import { IdleTickSchedulerService } from './idle-tick-scheduler.service';
import { BILLING_PROVIDERS } from './billing/billing.providers';
import { RHYTHM_PROVIDERS } from './rhythm/rhythm.providers';
import { IDLE_TICK_PROVIDERS } from './idle-tick.providers';

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
        PlatformCoreModule.forRoot(start),
        // The tick (idle state, keep-alives, proxy activity, stops, budget), the rhythm, the billing reconcile.
        StatusModule,
        RecordsModule,
        IdleModule,
        StopModule,
        BudgetModule,
        EventsModule,
        ProxyActivityModule,
        UsageModule,
        BillingModule,
        DiagnosisModule,
        // The wake queue only to add pre-wakes to; the waker works it.
        QueuesModule.forRoot(IDLE_TICK_QUEUE, BILLING_RECONCILE_QUEUE, WAKE_QUEUE),
        WorkerHealthModule.forRoot({ app: 'idle-monitor', ticks: true }),
      ],
      providers: [
        ...RHYTHM_PROVIDERS,
        ...IDLE_TICK_PROVIDERS,
        {
          provide: TickScheduler,
          useFactory: (queue: Queue, config: PodwardenConfig, logger: AppLogger) =>
            new TickScheduler({ queue, config, logger }),
          inject: [getQueueToken(IDLE_TICK_QUEUE), CONFIG, LOGGER],
        },
        {
          provide: SchedulerHealth,
          useFactory: (metrics: PodwardenMetrics, state: WorkerState, scheduler: TickScheduler) =>
            new SchedulerHealth(metrics, state, {
              presence: () => scheduler.presence(),
              restored: () => scheduler.restored,
            }),
          inject: [PodwardenMetrics, WorkerState, TickScheduler],
        },
        {
          provide: SetupHealth,
          useFactory: (metrics: PodwardenMetrics, state: WorkerState, config: PodwardenConfig) =>
            new SetupHealth(metrics, state, monitorSetup(config)),
          inject: [PodwardenMetrics, WorkerState, CONFIG],
        },
        ...BILLING_PROVIDERS,
        IdleTickProcessor,
        IdleTickSchedulerService,
      ],
    };
  }
}
