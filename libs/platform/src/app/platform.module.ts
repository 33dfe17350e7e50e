import {
  Global,
  Inject,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import type Redis from 'ioredis';
import type { PodwardenConfig } from '@podwarden/policies';
import type { RunPodClient, RunPodInsights } from '@podwarden/runpod-client';
import type { AppLogger } from '../logging/logger';
import { createRedis } from '../redis/redis-connection';
import { RedisClock, type SharedClock } from '../redis/redis-clock';
import { RedisKeys } from '../redis/redis-keys';
import { createRunPodClient, createRunPodInsights } from '../runpod/create-runpod-client';
import { BillingStore } from '../billing/billing-store';
import { DiagnosisStore } from '../diagnosis/diagnosis-store';
import { ActionLog } from '../records/action-log';
import { WakeHistory } from '../records/wake-history';
import { ReadyLog } from '../records/ready-log';
import { WakeProgressStore } from '../wake/wake-progress';
import { WakeGate } from '../wake/wake-gate';
import { BillableIntents } from '../records/billable-intents';
import { IdleStateStore } from '../idle/idle-state-store';
import { KeepAliveStore } from '../idle/keep-alive-store';
import { ProxyActivityStore } from '../proxy/proxy-activity-store';
import { UsageStore } from '../usage/usage-store';
import { RhythmStore } from '../usage/rhythm-store';
import { StopService } from '../stop/stop-service';
import { PendingStopStore } from '../stop/pending-stop-store';
import { StatusSnapshotStore } from '../status/status-snapshot-store';
import { StatusPublisher } from '../status/status-publisher';
import { ReadyTimes } from '../status/ready-times';
import { BudgetLedger } from '../budget/budget-ledger';
import { PodEventPublisher } from '../events/pod-event-publisher';
import { PodEventReader } from '../events/pod-event-reader';
import { PodwardenMetrics } from '../metrics/podwarden-metrics';
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

/** A Redis store that needs only the connection and the key namespace. */
function keyedStore<T>(store: new (redis: Redis, keys: RedisKeys) => T): Provider {
  return {
    provide: store,
    useFactory: (redis: Redis, keys: RedisKeys) => new store(redis, keys),
    inject: [REDIS, REDIS_KEYS],
  };
}

/** A Redis store whose times are judged on the shared clock (Redis's). */
function clockedStore<T>(store: new (redis: Redis, keys: RedisKeys, clock: SharedClock) => T): Provider {
  return {
    provide: store,
    useFactory: (redis: Redis, keys: RedisKeys) => new store(redis, keys, new RedisClock(redis)),
    inject: [REDIS, REDIS_KEYS],
  };
}

/** A Redis store that also logs what it could not write, within the configured write timeout. */
function loggedStore<T>(
  store: new (redis: Redis, keys: RedisKeys, logger: AppLogger, writeTimeoutMs: number) => T,
): Provider {
  return {
    provide: store,
    useFactory: (redis: Redis, keys: RedisKeys, logger: AppLogger, config: PodwardenConfig) =>
      new store(redis, keys, logger, config.tuning.redisWriteTimeoutMs),
    inject: [REDIS, REDIS_KEYS, LOGGER, CONFIG],
  };
}

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

/**
 * What every app shares: config, logger, one Redis connection for request
 * paths, the RunPod client, the durable records, the wake gate and the one
 * stop service. Global, so app modules only add their own pieces.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(start: AppStart): DynamicModule {
    const providers = [
      { provide: CONFIG, useValue: start.config },
      { provide: LOGGER, useValue: start.logger },
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
      keyedStore(BillingStore),
      keyedStore(DiagnosisStore),
      keyedStore(StatusSnapshotStore),
      {
        provide: StatusPublisher,
        useFactory: (store: StatusSnapshotStore, logger: AppLogger, config: PodwardenConfig) =>
          new StatusPublisher(store, logger, config.tuning.redisWriteTimeoutMs),
        inject: [StatusSnapshotStore, LOGGER, CONFIG],
      },
      keyedStore(ReadyTimes),
      {
        // Every billable call is recorded here, in every app: so every write also invalidates the status snapshot.
        provide: ActionLog,
        useFactory: (
          redis: Redis,
          keys: RedisKeys,
          logger: AppLogger,
          config: PodwardenConfig,
          status: StatusPublisher,
        ) =>
          new ActionLog(redis, keys, logger, config.tuning.redisWriteTimeoutMs, (podName) =>
            status.invalidate(podName),
          ),
        inject: [REDIS, REDIS_KEYS, LOGGER, CONFIG, StatusPublisher],
      },
      loggedStore(WakeHistory),
      loggedStore(ReadyLog),
      keyedStore(WakeProgressStore),
      keyedStore(BillableIntents),
      {
        provide: WakeGate,
        useFactory: (redis: Redis, keys: RedisKeys, config: PodwardenConfig) =>
          new WakeGate(redis, keys, config.tuning.keepCompletedJobsSeconds),
        inject: [REDIS, REDIS_KEYS, CONFIG],
      },
      keyedStore(IdleStateStore),
      clockedStore(BudgetLedger),
      keyedStore(PendingStopStore),
      keyedStore(KeepAliveStore),
      clockedStore(ProxyActivityStore),
      {
        provide: UsageStore,
        useFactory: (redis: Redis, keys: RedisKeys, config: PodwardenConfig) =>
          new UsageStore(redis, keys, config.rhythm.usageRetentionDays),
        inject: [REDIS, REDIS_KEYS, CONFIG],
      },
      keyedStore(RhythmStore),
      loggedStore(PodEventPublisher),
      keyedStore(PodEventReader),
      { provide: CLOCK, useValue: (() => Date.now()) satisfies Clock },
      StopService,
      PlatformLifecycle,
    ];
    return {
      module: PlatformModule,
      providers,
      exports: [
        CONFIG,
        LOGGER,
        CLOCK,
        REDIS,
        REDIS_KEYS,
        RUNPOD_CLIENT,
        RUNPOD_INSIGHTS,
        BillingStore,
        DiagnosisStore,
        PodwardenMetrics,
        ActionLog,
        WakeHistory,
        ReadyLog,
        WakeProgressStore,
        WakeGate,
        BillableIntents,
        IdleStateStore,
        KeepAliveStore,
        BudgetLedger,
        PendingStopStore,
        ProxyActivityStore,
        UsageStore,
        RhythmStore,
        StopService,
        StatusSnapshotStore,
        StatusPublisher,
        ReadyTimes,
        PodEventPublisher,
        PodEventReader,
      ],
    };
  }
}
