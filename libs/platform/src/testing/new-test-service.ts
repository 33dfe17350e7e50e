import { Global, Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import type Redis from 'ioredis';
import type { PodwardenConfig } from '@podwarden/policies';
import type { RunPodInsights } from '@podwarden/runpod-client';
import {
  FakeRunPod,
  TEST_REDIS_URL,
  UnexpectedCallError,
  captureLogs,
  connectTestRedis,
  deleteKeysUnder,
  testConfig,
  uniqueTestPrefix,
  type CapturedLogs,
} from '@podwarden/testing';
import {
  CLOCK,
  CONFIG,
  LOGGER,
  REDIS,
  REDIS_KEYS,
  RUNPOD_CLIENT,
  RUNPOD_INSIGHTS,
  type Clock,
} from '../app/app-tokens';
import { PLATFORM_CORE_EXPORTS } from '../app/platform-core.module';
import { BillingModule } from '../billing/billing.module';
import { BudgetModule } from '../budget/budget.module';
import { DiagnosisModule } from '../diagnosis/diagnosis.module';
import { EventsModule } from '../events/events.module';
import { IdleModule } from '../idle/idle.module';
import { PodwardenMetrics } from '../metrics/podwarden-metrics';
import { ProxyActivityModule } from '../proxy/proxy-activity.module';
import { RecordsModule } from '../records/records.module';
import { RedisKeys } from '../redis/redis-keys';
import { StatusModule } from '../status/status.module';
import { StopModule } from '../stop/stop.module';
import { UsageModule } from '../usage/usage.module';
import { WakeModule } from '../wake/wake.module';

/** Anything Nest injects by: a class, a symbol or a string. */
export type ProviderToken = string | symbol | Type<unknown> | (abstract new (...args: never[]) => unknown);

/** The wall clock behind CLOCK: follows Date.now() until a spec sets it, then moves only when told. */
export class TestClock {
  private fixed: number | null = null;
  readonly now: Clock = () => this.fixed ?? Date.now();

  set(at: number): this {
    this.fixed = at;
    return this;
  }

  advance(ms: number): this {
    return this.set(this.now() + ms);
  }
}

export interface TestServiceOptions {
  /** The feature modules that own the service; by default inferred from what it and its constructor need. */
  readonly imports?: ReadonlyArray<Type<unknown> | DynamicModule>;
  /** Providers besides the service (app-level ones its app lists beside it). */
  readonly providers?: readonly Provider[];
  /** Any provider replaced by a value, core tokens included: `[[UsageStore, failing], [CLOCK, () => 0]]`. */
  readonly overrides?: ReadonlyArray<readonly [ProviderToken, unknown]>;
  /** Names the Redis key prefix (made unique per call); by default the service's name. */
  readonly prefix?: string;
  /** Merged into the test config's env (QUEUE_PREFIX and REDIS_URL are the factory's). */
  readonly env?: Record<string, string>;
  /** The fake behind RUNPOD_CLIENT, when the spec has set up its world first. */
  readonly fakeRunPod?: FakeRunPod;
}

export interface TestService<T> {
  readonly service: T;
  readonly fakeRunPod: FakeRunPod;
  readonly logs: CapturedLogs;
  readonly clock: TestClock;
  /** The real connection the service's stores use (unless REDIS was overridden). */
  readonly redis: Redis;
  readonly prefix: string;
  readonly keys: RedisKeys;
  readonly config: PodwardenConfig;
  readonly metrics: PodwardenMetrics;
  readonly moduleRef: TestingModule;
  /** Any provider of the module: a store the service wrote through, a fake that was overridden. */
  get<U = unknown>(token: ProviderToken): U;
  /** Closes the module (its destroy hooks run), deletes the prefix's keys and quits Redis. */
  close(): Promise<void>;
}

// The platform's feature modules, searched for the one exporting a class the service needs.
const FEATURE_MODULES: ReadonlyArray<Type<unknown>> = [
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
  ProxyActivityModule,
];

function exportsOf(module: Type<unknown> | DynamicModule): readonly unknown[] {
  if ('module' in module) return [...(module.exports ?? []), ...exportsOf(module.module)];
  return (Reflect.getMetadata('exports', module) as unknown[] | undefined) ?? [];
}

/** The feature module exporting the service itself, else those exporting what its constructor takes. */
function inferImports(serviceClass: Type<unknown>): Array<Type<unknown>> {
  const owner = FEATURE_MODULES.find((module) => exportsOf(module).includes(serviceClass));
  if (owner !== undefined) return [owner];
  const needs = (Reflect.getMetadata('design:paramtypes', serviceClass) as unknown[] | undefined) ?? [];
  return FEATURE_MODULES.filter((module) => needs.some((need) => exportsOf(module).includes(need)));
}

/** An insights client nobody scripted: a spec that reaches it overrides RUNPOD_INSIGHTS. */
function unscriptedInsights(): Pick<
  RunPodInsights,
  'isConfigured' | 'podBilling' | 'accountBilling' | 'podLogs' | 'close'
> {
  const refuse = (call: string) => () => Promise.reject(new UnexpectedCallError(call));
  return {
    isConfigured: true,
    podBilling: refuse('insights podBilling'),
    accountBilling: refuse('insights accountBilling'),
    podLogs: refuse('insights podLogs'),
    close: async () => undefined,
  };
}

/**
 * Builds `serviceClass` as its app would, from the real feature modules, on a test core in place of
 * PlatformCoreModule: test config, captured logs, a movable clock, a real Redis under a prefix of its
 * own, real metrics, and FakeRunPod. Every provider can be overridden; `close()` cleans up.
 */
export async function newTestService<T>(
  serviceClass: Type<T>,
  options: TestServiceOptions = {},
): Promise<TestService<T>> {
  const prefix = uniqueTestPrefix(options.prefix ?? serviceClass.name);
  const config = testConfig({ REDIS_URL: TEST_REDIS_URL, ...options.env, QUEUE_PREFIX: prefix });
  const logs = captureLogs();
  const clock = new TestClock();
  const fakeRunPod = options.fakeRunPod ?? new FakeRunPod();
  const keys = new RedisKeys(prefix);
  const redis = connectTestRedis();

  @Global()
  @Module({})
  class TestCoreModule {}
  const core: DynamicModule = {
    module: TestCoreModule,
    providers: [
      { provide: CONFIG, useValue: config },
      { provide: LOGGER, useValue: logs.logger },
      { provide: CLOCK, useValue: clock.now },
      { provide: REDIS, useValue: redis },
      { provide: REDIS_KEYS, useValue: keys },
      PodwardenMetrics,
      { provide: RUNPOD_CLIENT, useValue: fakeRunPod },
      { provide: RUNPOD_INSIGHTS, useValue: unscriptedInsights() },
    ],
    exports: PLATFORM_CORE_EXPORTS,
  };

  const imports = options.imports ?? inferImports(serviceClass);
  const exported = imports.some((entry) => exportsOf(entry).includes(serviceClass));
  let builder = Test.createTestingModule({
    imports: [core, ...imports],
    providers: [...(exported ? [] : [serviceClass]), ...(options.providers ?? [])],
  });
  for (const [token, value] of options.overrides ?? []) {
    builder = builder.overrideProvider(token).useValue(value);
  }
  let moduleRef: TestingModule;
  try {
    moduleRef = await builder.compile();
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  const get = <U>(token: ProviderToken): U => moduleRef.get<unknown, U>(token, { strict: false });
  return {
    service: get<T>(serviceClass),
    fakeRunPod,
    logs,
    clock,
    redis,
    prefix,
    keys,
    config,
    metrics: get<PodwardenMetrics>(PodwardenMetrics),
    moduleRef,
    get,
    close: async () => {
      await moduleRef.close();
      await deleteKeysUnder(redis, prefix);
      // quit() resolves on the server's OK; the socket closes after, so wait for that too.
      const ended = new Promise((resolve) => redis.once('end', resolve));
      await redis.quit();
      await ended;
    },
  };
}
