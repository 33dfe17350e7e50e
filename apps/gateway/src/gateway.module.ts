import { Module, type DynamicModule } from '@nestjs/common';
import { HealthModule, PlatformModule, type AppStart } from '@podwarden/platform';
import { OperatorTokenGuard } from './auth/operator-token.guard';
import { HistoryService } from './history/history.service';
import { KeepAliveService } from './keep-alive/keep-alive.service';
import { GatewayMetrics } from './metrics/gateway-metrics';
import { MetricsController } from './metrics/metrics.controller';
import { PodsController } from './pods/pods.controller';
import { PodStatusService } from './status/pod-status.service';
import { DEFAULT_STATUS_GATHER_MS, STATUS_GATHER_MS } from './status/status-gather.constant';
import { StartWakeService } from './wake/start-wake.service';
import { WakeQueue } from './wake/wake-queue';

@Module({})
export class GatewayModule {
  static forRoot(start: AppStart): DynamicModule {
    return {
      module: GatewayModule,
      imports: [PlatformModule.forRoot(start), HealthModule],
      controllers: [PodsController, MetricsController],
      providers: [
        OperatorTokenGuard,
        GatewayMetrics,
        WakeQueue,
        PodStatusService,
        { provide: STATUS_GATHER_MS, useValue: DEFAULT_STATUS_GATHER_MS },
        StartWakeService,
        HistoryService,
        KeepAliveService,
      ],
    };
  }
}
