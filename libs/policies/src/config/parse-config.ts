import { DEFAULTS, type ConfigVariable } from './config-defaults';
import type { LogLevel, OperatorGate, PodConfig, PodwardenConfig, TuningConfig } from './config-types';
import { readEnvironmentPod } from './environment-pod';
import { GUARD_RULES } from './guard-rule';
import { isUrlSafePodName, URL_SAFE_NAME_RULE } from './pod-name-rule';
import { readPodsConfig } from './pods-config-file';
import { quoteConfigValue } from './quote-config-value';
import {
  Environment,
  readChoice,
  readGuard,
  readOptionalGuard,
  readSecret,
  readSetText,
  readString,
} from './read-environment';
import { readDailyBudget } from './daily-budget-setting';
import { readRhythmConfig } from './rhythm-setting';
import { readBillingSettings } from './billing-settings';
import { keyPrefixFor, readRedisTopology } from './redis-topology';
import { checkProxyUrlTemplate, checkRedisUrl, checkRunpodBaseUrl } from './service-urls';

export type ConfigResult =
  | { readonly ok: true; readonly config: PodwardenConfig; readonly warnings: string[] }
  | { readonly ok: false; readonly error: string };

// Redis key segments: nothing that could split or glob a key.
const QUEUE_PREFIX_TEXT = /^[A-Za-z0-9_:-]+$/;

const LOG_LEVELS: ReadonlyMap<string, LogLevel> = new Map(
  (['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const).map((level) => [level, level]),
);

const GATE_WORDS: ReadonlyMap<string, OperatorGate> = new Map([
  ['on', 'on'],
  ['off', 'off'],
]);

const BOOLEAN_WORDS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
  ['yes', true],
  ['no', false],
]);

/**
 * Every app's configuration from its environment, read once at start-up (reading the PODS_CONFIG file is
 * the caller's job). A bad guard value keeps its default with one warning; anything that leaves the apps
 * unable to run safely is an error. No warning or error ever quotes a secret.
 */
export function parseConfig(env: Environment, podsConfigText: string | null): ConfigResult {
  const warnings: string[] = [];

  const prefix = readString(env, 'QUEUE_PREFIX', DEFAULTS.QUEUE_PREFIX);
  if (!QUEUE_PREFIX_TEXT.test(prefix)) {
    return {
      ok: false,
      error: `QUEUE_PREFIX=${quoteConfigValue(prefix)} may hold only letters, digits, "-", "_" and ":"`,
    };
  }
  const redisUrl = checkRedisUrl(readString(env, 'REDIS_URL', DEFAULTS.REDIS_URL));
  if (!redisUrl.ok) return redisUrl;
  const redisTopology = readRedisTopology(env, redisUrl.value);
  if (!redisTopology.ok) return redisTopology;
  const baseUrl = checkRunpodBaseUrl(readString(env, 'RUNPOD_V2_BASE_URL', DEFAULTS.RUNPOD_V2_BASE_URL));
  if (!baseUrl.ok) return baseUrl;
  const proxyUrlTemplate = checkProxyUrlTemplate(
    readString(env, 'RUNPOD_PROXY_URL_TEMPLATE', DEFAULTS.RUNPOD_PROXY_URL_TEMPLATE),
  );
  if (!proxyUrlTemplate.ok) return proxyUrlTemplate;

  // The one guard whose default (off) is wider than any value: a typo must not remove the ceiling.
  const budget = readDailyBudget(env);
  if (!budget.ok) return budget;

  const environmentPod = readEnvironmentPod(env, warnings);
  const pods = readPods(env, podsConfigText, environmentPod, warnings);
  if (!pods.ok) return pods;

  const config: PodwardenConfig = {
    runpod: {
      apiKey: readSecret(env, 'RUNPOD_API_KEY'),
      baseUrl: baseUrl.value,
      proxyUrlTemplate: proxyUrlTemplate.value,
    },
    pods: pods.pods,
    redis: {
      url: redisUrl.value,
      prefix: keyPrefixFor(redisTopology.value, prefix),
      topology: redisTopology.value,
    },
    http: {
      port: readGuard(env, 'PORT', GUARD_RULES.port, DEFAULTS.PORT, warnings),
      host: readString(env, 'HOST', DEFAULTS.HOST),
    },
    proxy: {
      port: readGuard(env, 'PROXY_PORT', GUARD_RULES.port, DEFAULTS.PROXY_PORT, warnings),
      maxHeld: readGuard(
        env,
        'PROXY_MAX_HELD',
        GUARD_RULES.nonNegativeInteger,
        DEFAULTS.PROXY_MAX_HELD,
        warnings,
      ),
    },
    healthPort: readOptionalGuard(env, 'HEALTH_PORT', GUARD_RULES.port, 'no health port', warnings),
    checkSeconds: readGuard(env, 'CHECK_SECONDS', GUARD_RULES.checkSeconds, DEFAULTS.CHECK_SECONDS, warnings),
    // Anything but an explicit "off" keeps the gate on: a typo must not open the write routes.
    operatorGate: readChoice(env, 'OPERATOR_GATE', GATE_WORDS, DEFAULTS.OPERATOR_GATE, 'on', warnings),
    operatorToken: readSecret(env, 'RIG_OPERATOR_TOKEN'),
    wakeToken: readSecret(env, 'RIG_WAKE_TOKEN'),
    wake: {
      maxPolls: readGuard(
        env,
        'WAKE_MAX_POLLS',
        GUARD_RULES.positiveInteger,
        DEFAULTS.WAKE_MAX_POLLS,
        warnings,
      ),
      // At least 1 ms: a zero interval would poll RunPod in a tight loop.
      pollIntervalMs: readGuard(
        env,
        'WAKE_POLL_INTERVAL_MS',
        GUARD_RULES.timerMilliseconds,
        DEFAULTS.WAKE_POLL_INTERVAL_MS,
        warnings,
      ),
      maxRetryAfterSeconds: readGuard(
        env,
        'WAKE_MAX_RETRY_AFTER_SECONDS',
        GUARD_RULES.timerSeconds,
        DEFAULTS.WAKE_MAX_RETRY_AFTER_SECONDS,
        warnings,
      ),
      createSettleSeconds: readGuard(
        env,
        'WAKE_CREATE_SETTLE_SECONDS',
        GUARD_RULES.timerSeconds,
        DEFAULTS.WAKE_CREATE_SETTLE_SECONDS,
        warnings,
      ),
      requestWaitSeconds: readGuard(
        env,
        'WAKE_REQUEST_WAIT_SECONDS',
        GUARD_RULES.timerSeconds,
        DEFAULTS.WAKE_REQUEST_WAIT_SECONDS,
        warnings,
      ),
      jobLockMs: readGuard(
        env,
        'WAKE_JOB_LOCK_MS',
        GUARD_RULES.timerMilliseconds,
        DEFAULTS.WAKE_JOB_LOCK_MS,
        warnings,
      ),
    },
    podNamePrefix: readString(env, 'POD_NAME_PREFIX', DEFAULTS.POD_NAME_PREFIX),
    orphanGraceMinutes: readGuard(
      env,
      'ORPHAN_GRACE_MINUTES',
      GUARD_RULES.nonNegativeDecimal,
      DEFAULTS.ORPHAN_GRACE_MINUTES,
      warnings,
    ),
    stopConfirm: {
      ticks: readGuard(
        env,
        'STOP_CONFIRM_TICKS',
        GUARD_RULES.positiveInteger,
        DEFAULTS.STOP_CONFIRM_TICKS,
        warnings,
      ),
      maxRestops: readGuard(
        env,
        'STOP_CONFIRM_MAX_RESTOPS',
        GUARD_RULES.nonNegativeInteger,
        DEFAULTS.STOP_CONFIRM_MAX_RESTOPS,
        warnings,
      ),
    },
    dailyBudgetUsd: budget.value,
    keepAliveMaxMinutes: readGuard(
      env,
      'KEEP_ALIVE_MAX_MINUTES',
      GUARD_RULES.keepAliveMinutes,
      DEFAULTS.KEEP_ALIVE_MAX_MINUTES,
      warnings,
    ),
    idleDryRun: readChoice(env, 'IDLE_DRY_RUN', BOOLEAN_WORDS, DEFAULTS.IDLE_DRY_RUN, 'false', warnings),
    rhythm: readRhythmConfig(env, warnings),
    billing: readBillingSettings(env, warnings),
    logLevel: readChoice(env, 'LOG_LEVEL', LOG_LEVELS, DEFAULTS.LOG_LEVEL, DEFAULTS.LOG_LEVEL, warnings),
    tuning: readTuning(env, warnings),
  };
  return { ok: true, config, warnings };
}

function readTuning(env: Environment, warnings: string[]): TuningConfig {
  const count = (name: ConfigVariable, fallback: number): number =>
    readGuard(env, name, GUARD_RULES.positiveInteger, fallback, warnings);
  const ms = (name: ConfigVariable, fallback: number): number =>
    readGuard(env, name, GUARD_RULES.timerMilliseconds, fallback, warnings);
  const seconds = (name: ConfigVariable, fallback: number): number =>
    readGuard(env, name, GUARD_RULES.timerSeconds, fallback, warnings);
  return {
    wakeConcurrency: count('WAKE_CONCURRENCY', DEFAULTS.WAKE_CONCURRENCY),
    idleConcurrency: count('IDLE_CONCURRENCY', DEFAULTS.IDLE_CONCURRENCY),
    idleQuietConcurrency: count('IDLE_QUIET_CONCURRENCY', DEFAULTS.IDLE_QUIET_CONCURRENCY),
    idlePodLockMs: ms('IDLE_POD_LOCK_MS', DEFAULTS.IDLE_POD_LOCK_MS),
    shutdownGraceMs: ms('SHUTDOWN_GRACE_MS', DEFAULTS.SHUTDOWN_GRACE_MS),
    redisReadTimeoutMs: ms('REDIS_READ_TIMEOUT_MS', DEFAULTS.REDIS_READ_TIMEOUT_MS),
    redisWriteTimeoutMs: ms('REDIS_WRITE_TIMEOUT_MS', DEFAULTS.REDIS_WRITE_TIMEOUT_MS),
    runpodConnectTimeoutMs: ms('RUNPOD_CONNECT_TIMEOUT_MS', DEFAULTS.RUNPOD_CONNECT_TIMEOUT_MS),
    runpodTimeoutMs: ms('RUNPOD_TIMEOUT_MS', DEFAULTS.RUNPOD_TIMEOUT_MS),
    metricsTimeoutMs: ms('RUNPOD_METRICS_TIMEOUT_MS', DEFAULTS.RUNPOD_METRICS_TIMEOUT_MS),
    keepCompletedJobsSeconds: seconds('JOB_KEEP_COMPLETED_SECONDS', DEFAULTS.JOB_KEEP_COMPLETED_SECONDS),
    keepFailedJobsSeconds: seconds('JOB_KEEP_FAILED_SECONDS', DEFAULTS.JOB_KEEP_FAILED_SECONDS),
    statusMaxAgeMs: ms('STATUS_MAX_AGE_MS', DEFAULTS.STATUS_MAX_AGE_MS),
  };
}

type PodsResult =
  { readonly ok: true; readonly pods: PodConfig[] } | { readonly ok: false; readonly error: string };

/** The pods file when PODS_CONFIG is set, else the environment's single pod. */
function readPods(
  env: Environment,
  podsConfigText: string | null,
  environmentPod: PodConfig,
  warnings: string[],
): PodsResult {
  if (readSetText(env, 'PODS_CONFIG') !== null) {
    if (podsConfigText === null)
      return { ok: false, error: 'PODS_CONFIG is set but its file content was not provided' };
    const fromFile = readPodsConfig(podsConfigText, environmentPod, warnings);
    return fromFile.ok ? { ok: true, pods: fromFile.value } : fromFile;
  }
  if (!isUrlSafePodName(environmentPod.name)) {
    return {
      ok: false,
      error: `RUNPOD_POD_NAME=${quoteConfigValue(environmentPod.name)} is not URL-safe (${URL_SAFE_NAME_RULE})`,
    };
  }
  return { ok: true, pods: [environmentPod] };
}
