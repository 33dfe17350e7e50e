import { Module, type DynamicModule, type OnApplicationShutdown, Inject } from '@nestjs/common';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  EventsModule,
  HealthModule,
  IdleModule,
  PlatformCoreModule,
  ProxyActivityModule,
  QueuesModule,
  RecordsModule,
  StatusModule,
  UsageModule,
  WAKE_QUEUE,
  WakeModule,
  type AppStart,
} from '@podwarden/platform';
import { HeldRequests } from './cold/held-requests';
import { PodReadiness } from './cold/pod-readiness';
import { ProxyWakes } from './cold/proxy-wakes';
import { ShedEstimates } from './cold/shed-estimates';
import { ActivityPublisher } from './forward/activity-publisher';
import { Forwarder } from './forward/forwarder';
import { MetricsController } from './metrics/metrics.controller';
import { ProxyMetrics } from './metrics/proxy-metrics';
import { ProxyController } from './proxy.controller';
import { ProxyRequestHandler } from './proxy-request.handler';
import { FORWARDER } from './proxy.tokens';
import { ModelListStore } from './reads/model-list-store';
import { ReadRequests } from './reads/read-requests';

class ForwarderLifecycle implements OnApplicationShutdown {
  constructor(@Inject(FORWARDER) private readonly forwarder: Forwarder) {}

  async onApplicationShutdown(): Promise<void> {
    await this.forwarder.close().catch(() => undefined);
  }
}

/** The inference proxy: its own process, so model traffic and its failures stay away from the control API. */
@Module({})
export class InferenceProxyModule {
  static forRoot(start: AppStart): DynamicModule {
    return {
      module: InferenceProxyModule,
      imports: [
        PlatformCoreModule.forRoot(start),
        // Readiness (idle state), wakes (gate, events), shed estimates (wake history, ready times), activity
        // and usage: no stop service, no budget ledger, no billing or diagnosis.
        IdleModule,
        WakeModule,
        EventsModule,
        RecordsModule,
        StatusModule,
        ProxyActivityModule,
        UsageModule,
        QueuesModule.forRoot(WAKE_QUEUE),
        HealthModule,
      ],
      // Health and metrics first, so `/health/...` and `/metrics` are never read as a pod's name.
      controllers: [MetricsController, ProxyController],
      providers: [
        {
          provide: FORWARDER,
          useFactory: (config: PodwardenConfig) => new Forwarder(config.tuning.runpodConnectTimeoutMs),
          inject: [CONFIG],
        },
        ForwarderLifecycle,
        ProxyMetrics,
        PodReadiness,
        ProxyWakes,
        HeldRequests,
        ShedEstimates,
        ActivityPublisher,
        ModelListStore,
        ReadRequests,
        ProxyRequestHandler,
      ],
    };
  }
}
