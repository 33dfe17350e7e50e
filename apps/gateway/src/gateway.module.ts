import { BilledRuns } from './history/billed-runs';
import { DiagnosisController } from './diagnosis/diagnosis.controller';
import { UsageController } from './usage/usage.controller';
import { Module, type DynamicModule } from '@nestjs/common';
import {
  BillingModule,
  BudgetModule,
  DiagnosisModule,
  EventsModule,
  HealthModule,
  IDLE_TICK_QUEUE,
  IdleModule,
  PlatformCoreModule,
  QueuesModule,
  RecordsModule,
  StatusModule,
  StopModule,
  UsageModule,
  WAKE_QUEUE,
  WakeModule,
  type AppStart,
} from '@podwarden/platform';
import { QueueBoardModule } from './admin/queue-board.module';
import { OperatorTokenGuard } from './auth/operator-token.guard';
import { DEFAULT_EVENT_STREAM_TIMING, EVENT_STREAM_TIMING } from './events/event-stream-timing.constant';
import { PodEventHub } from './events/pod-event-hub';
import { PodEventsController } from './events/pod-events.controller';
import { HistoryService } from './history/history.service';
import { KeepAliveService } from './keep-alive/keep-alive.service';
import { GatewayMetrics } from './metrics/gateway-metrics';
import { MetricsController } from './metrics/metrics.controller';
import { PodsController } from './pods/pods.controller';
import { QueueConnectionsService } from './queues/queue-connections.service';
import { PodStatusService } from './status/pod-status.service';
import { VolumeSnapshots } from './status/volume-snapshots';
import { ManualStopUsage } from './stop/manual-stop-usage';
import { StartWakeService } from './wake/start-wake.service';
import { WakeQueueEvents } from './wake/wake-queue-events';

@Module({})
export class GatewayModule {
  static forRoot(start: AppStart): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        PlatformCoreModule.forRoot(start),
        // Every store the API reads or writes; it stops pods, so the stop service too. Not the proxy's activity.
        StatusModule,
        RecordsModule,
        WakeModule,
        IdleModule,
        StopModule,
        BudgetModule,
        EventsModule,
        UsageModule,
        BillingModule,
        DiagnosisModule,
        // The idle-tick queue is registered only so Bull Board can show it; the gateway never adds to it.
        QueuesModule.forRoot(WAKE_QUEUE, IDLE_TICK_QUEUE),
        QueueBoardModule.forRoot(start),
        HealthModule,
      ],
      controllers: [
        PodsController,
        DiagnosisController,
        UsageController,
        PodEventsController,
        MetricsController,
      ],
      providers: [
        OperatorTokenGuard,
        GatewayMetrics,
        WakeQueueEvents,
        QueueConnectionsService,
        PodStatusService,
        VolumeSnapshots,
        StartWakeService,
        HistoryService,
        BilledRuns,
        KeepAliveService,
        ManualStopUsage,
        PodEventHub,
        { provide: EVENT_STREAM_TIMING, useValue: DEFAULT_EVENT_STREAM_TIMING },
      ],
    };
  }
}
