import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import type Redis from 'ioredis';
import type { PodwardenConfig } from '@podwarden/policies';
import { CONFIG, REDIS, REDIS_KEYS } from '../app/app-tokens';
import { PodwardenMetrics } from '../metrics/podwarden-metrics';
import { WorkerMetrics } from '../metrics/worker-metrics';
import type { RedisKeys } from '../redis/redis-keys';
import { WorkerHostKit } from '../queues/tracked-worker-host';
import { RedisHealthIndicator } from './redis-health.indicator';
import { WorkerHealthController, WorkerMetricsController } from './worker-health.controller';
import { WorkerState } from './worker-state';

export interface WorkerHealthOptions {
  /** The app's name, for the default process metrics' prefix. */
  readonly app: string;
  /** The idle monitor: readiness also requires ticks to keep completing. */
  readonly ticks: boolean;
}

/**
 * A worker's /health/live, /health/ready and /metrics on HEALTH_PORT. Global, so the processor can inject
 * WorkerState, WorkerMetrics or the WorkerHostKit carrying both. Needs PlatformCoreModule.
 */
@Global()
@Module({})
export class WorkerHealthModule {
  static forRoot(options: WorkerHealthOptions): DynamicModule {
    return {
      module: WorkerHealthModule,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [WorkerHealthController, WorkerMetricsController],
      providers: [
        RedisHealthIndicator,
        {
          provide: WorkerState,
          useFactory: (redis: Redis, keys: RedisKeys, config: PodwardenConfig) =>
            new WorkerState(redis, keys, config, options.ticks),
          inject: [REDIS, REDIS_KEYS, CONFIG],
        },
        {
          provide: WorkerMetrics,
          useFactory: (metrics: PodwardenMetrics, state: WorkerState) =>
            new WorkerMetrics(metrics, options.app, () => state.tickAgeSeconds()),
          inject: [PodwardenMetrics, WorkerState],
        },
        WorkerHostKit,
      ],
      exports: [WorkerState, WorkerMetrics, WorkerHostKit],
    };
  }
}
