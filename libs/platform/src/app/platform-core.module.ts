import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import type { PodwardenConfig } from '@podwarden/policies';
import type { RunPodClient, RunPodInsights } from '@podwarden/runpod-client';
import type { AppLogger } from '../logging/logger';
import { PodwardenMetrics } from '../metrics/podwarden-metrics';
import { createRedis } from '../redis/redis-connection';
import { RedisKeys } from '../redis/redis-keys';
import { createRunPodClient, createRunPodInsights } from '../runpod/create-runpod-client';
import {
  CLOCK,
  CONFIG,
  LOGGER,
  REDIS,
  REDIS_KEYS,
  RUNPOD_CLIENT,
  RUNPOD_INSIGHTS,
  type Clock,
} from './app-tokens';
import type { AppStart } from './start-app';

/** Closes what the core opened, once Nest has closed everything built on it. */
class PlatformLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(RUNPOD_CLIENT) private readonly client: RunPodClient,
    @Inject(RUNPOD_INSIGHTS) private readonly insights: RunPodInsights,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client.close().catch(() => undefined);
    await this.insights.close().catch(() => undefined);
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** The tokens the core exports: a test core standing in for it (newTestService) provides the same. */
export const PLATFORM_CORE_EXPORTS = [
  CONFIG,
  LOGGER,
  CLOCK,
  REDIS,
  REDIS_KEYS,
  PodwardenMetrics,
  RUNPOD_CLIENT,
  RUNPOD_INSIGHTS,
];

/**
 * What every app stands on, built from its `start` (the list is in docs/architecture.md, "Wiring").
 * Global, so the feature modules (records, wake, stop, ...) and the apps inject these without
 * importing it; each app imports it once, first.
 */
@Global()
@Module({})
export class PlatformCoreModule {
  static forRoot(start: AppStart): DynamicModule {
    return {
      module: PlatformCoreModule,
      providers: [
        { provide: CONFIG, useValue: start.config },
        { provide: LOGGER, useValue: start.logger },
        { provide: CLOCK, useValue: (() => Date.now()) satisfies Clock },
        {
          provide: REDIS,
          // The outer bound of every store command: reads on request paths keep their shorter one.
          useFactory: (config: PodwardenConfig) =>
            createRedis(config.redis, 'request', config.tuning.redisWriteTimeoutMs),
          inject: [CONFIG],
        },
        {
          provide: REDIS_KEYS,
          useFactory: (config: PodwardenConfig) => new RedisKeys(config.redis.prefix),
          inject: [CONFIG],
        },
        PodwardenMetrics,
        {
          provide: RUNPOD_CLIENT,
          useFactory: (config: PodwardenConfig, logger: AppLogger, metrics: PodwardenMetrics) =>
            createRunPodClient(config, logger, metrics.observeRunPod),
          inject: [CONFIG, LOGGER, PodwardenMetrics],
        },
        {
          provide: RUNPOD_INSIGHTS,
          useFactory: (config: PodwardenConfig, logger: AppLogger, metrics: PodwardenMetrics) =>
            createRunPodInsights(config, logger, metrics.observeRunPod),
          inject: [CONFIG, LOGGER, PodwardenMetrics],
        },
        PlatformLifecycle,
      ],
      exports: PLATFORM_CORE_EXPORTS,
    };
  }
}
