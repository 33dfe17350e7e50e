import { DEFAULTS } from './config-defaults';
import type { PodwardenConfig } from './config-types';
import { parseConfig } from './parse-config';

function parsed(env: Record<string, string | undefined>): { config: PodwardenConfig; warnings: string[] } {
  const result = parseConfig(env, null);
  if (!result.ok) throw new Error(`expected a config, got: ${result.error}`);
  return result;
}

describe('parseConfig defaults', () => {
  // The values below restate the contract's tables literally, so a drifting default fails here.
  const contractDefaults: [string, (config: PodwardenConfig) => unknown, unknown][] = [
    ['RUNPOD_API_KEY unset ⇒ null (unconfigured)', (c) => c.runpod.apiKey, null],
    ['RUNPOD_V2_BASE_URL', (c) => c.runpod.baseUrl, 'https://api.runpod.io/v2'],
    [
      'RUNPOD_PROXY_URL_TEMPLATE',
      (c) => c.runpod.proxyUrlTemplate,
      'https://{podId}-{port}.proxy.runpod.net',
    ],
    ['RUNPOD_VOLUME_ID blank (unconfigured)', (c) => c.pods[0].volumeId, ''],
    ['RUNPOD_TEMPLATE_ID blank', (c) => c.pods[0].templateId, ''],
    ['RUNPOD_DATACENTER_ID', (c) => c.pods[0].datacenterId, 'EU-RO-1'],
    ['RUNPOD_POD_NAME', (c) => c.pods[0].name, 'qwen'],
    ['RUNPOD_POD_PORT', (c) => c.pods[0].podPort, 8000],
    ['RUNPOD_MIN_VRAM_GB', (c) => c.pods[0].minVramGb, 32],
    ['RUNPOD_MAX_PRICE_PER_HOUR', (c) => c.pods[0].maxPricePerHour, 1.0],
    ['RUNPOD_GPU_ALLOWLIST unset ⇒ none', (c) => c.pods[0].gpuAllowlist, []],
    ['IDLE_MINUTES', (c) => c.pods[0].idleMinutes, 15],
    ['CHECK_SECONDS', (c) => c.checkSeconds, 60],
    ['MAX_RUNTIME_MINUTES', (c) => c.pods[0].maxRuntimeMinutes, 360],
    ['RUNPOD_BOOT_GRACE_MINUTES', (c) => c.pods[0].bootGraceMinutes, 20],
    ['RIG_OPERATOR_TOKEN unset ⇒ null', (c) => c.operatorToken, null],
    ['RIG_WAKE_TOKEN unset ⇒ null', (c) => c.wakeToken, null],
    ['REDIS_URL', (c) => c.redis.url, 'redis://127.0.0.1:6379'],
    ['QUEUE_PREFIX', (c) => c.redis.prefix, 'podwarden'],
    ['PORT', (c) => c.http.port, 8080],
    ['HOST', (c) => c.http.host, '0.0.0.0'],
    ['OPERATOR_GATE', (c) => c.operatorGate, 'on'],
    ['WAKE_MAX_POLLS', (c) => c.wake.maxPolls, 30],
    ['WAKE_POLL_INTERVAL_MS', (c) => c.wake.pollIntervalMs, 10000],
    ['WAKE_MAX_RETRY_AFTER_SECONDS', (c) => c.wake.maxRetryAfterSeconds, 30],
    ['WAKE_CREATE_SETTLE_SECONDS', (c) => c.wake.createSettleSeconds, 60],
    ['WAKE_REQUEST_WAIT_SECONDS', (c) => c.wake.requestWaitSeconds, 25],
    ['WAKE_JOB_LOCK_MS', (c) => c.wake.jobLockMs, 30000],
    ['PODS_CONFIG unset ⇒ the single environment pod', (c) => c.pods.length, 1],
    ['POD_NAME_PREFIX', (c) => c.podNamePrefix, 'podwarden-'],
    ['ORPHAN_GRACE_MINUTES', (c) => c.orphanGraceMinutes, 10],
    ['STOP_CONFIRM_TICKS', (c) => c.stopConfirm.ticks, 3],
    ['STOP_CONFIRM_MAX_RESTOPS', (c) => c.stopConfirm.maxRestops, 2],
    ['BILLING_RECONCILE_SECONDS', (c) => c.billing.reconcileSeconds, 900],
    ['BILLING_LAG_MINUTES', (c) => c.billing.lagMinutes, 10],
    ['BOOT_DIAGNOSE_TICKS', (c) => c.billing.diagnoseAfterTicks, 3],
    ['DAILY_BUDGET_USD unset ⇒ off', (c) => c.dailyBudgetUsd, null],
    ['KEEP_ALIVE_MAX_MINUTES', (c) => c.keepAliveMaxMinutes, 1440],
    ['IDLE_DRY_RUN', (c) => c.idleDryRun, false],
    ['IDLE_POLICY', (c) => c.pods[0].idlePolicy, 'fixed'],
    ['IDLE_MIN_MINUTES', (c) => c.rhythm.minMinutes, 2],
    ["IDLE_MAX_MINUTES unset ⇒ each pod's IDLE_MINUTES", (c) => c.rhythm.maxMinutes, null],
    ['PREWAKE unset ⇒ on (with adaptive)', (c) => c.rhythm.prewake, true],
    ['PREWAKE_MAX_PER_DAY', (c) => c.rhythm.prewakeMaxPerDay, 4],
    ['USAGE_RETENTION_DAYS', (c) => c.rhythm.usageRetentionDays, 28],
    ['HEALTH_PORT unset ⇒ none', (c) => c.healthPort, null],
    ['LOG_LEVEL', (c) => c.logLevel, 'info'],
    ['PROXY_PORT', (c) => c.proxy.port, 8081],
    ['PROXY_HOLD_SECONDS', (c) => c.pods[0].proxyHoldSeconds, 0],
    ['PROXY_MAX_HELD', (c) => c.proxy.maxHeld, 100],
    ['RIG_INFERENCE_TOKEN unset ⇒ null', (c) => c.pods[0].inferenceToken, null],
    ['WAKE_CONCURRENCY', (c) => c.tuning.wakeConcurrency, 8],
    ['IDLE_CONCURRENCY', (c) => c.tuning.idleConcurrency, 4],
    ['IDLE_QUIET_CONCURRENCY', (c) => c.tuning.idleQuietConcurrency, 32],
    ['IDLE_POD_LOCK_MS', (c) => c.tuning.idlePodLockMs, 5000],
    ['SHUTDOWN_GRACE_MS', (c) => c.tuning.shutdownGraceMs, 10000],
    ['REDIS_READ_TIMEOUT_MS', (c) => c.tuning.redisReadTimeoutMs, 1500],
    ['REDIS_WRITE_TIMEOUT_MS', (c) => c.tuning.redisWriteTimeoutMs, 3000],
    ['RUNPOD_CONNECT_TIMEOUT_MS', (c) => c.tuning.runpodConnectTimeoutMs, 5000],
    ['RUNPOD_TIMEOUT_MS', (c) => c.tuning.runpodTimeoutMs, 10000],
    ['RUNPOD_METRICS_TIMEOUT_MS', (c) => c.tuning.metricsTimeoutMs, 5000],
    ['JOB_KEEP_COMPLETED_SECONDS', (c) => c.tuning.keepCompletedJobsSeconds, 3600],
    ['JOB_KEEP_FAILED_SECONDS', (c) => c.tuning.keepFailedJobsSeconds, 86400],
    ['STATUS_MAX_AGE_MS', (c) => c.tuning.statusMaxAgeMs, 2000],
  ];

  it.each(contractDefaults)('%s takes the contract default when unset', (_name, pick, expected) => {
    expect(pick(parsed({}).config)).toEqual(expected);
  });

  it.each(contractDefaults)('%s takes the contract default when blank', (name, pick, expected) => {
    const variable = name.split(' ')[0];
    expect(pick(parsed({ [variable]: '  ' }).config)).toEqual(expected);
  });

  it('an empty environment parses without warnings', () => {
    expect(parsed({}).warnings).toEqual([]);
  });

  it('a blank value of every variable is read as unset, without warnings', () => {
    const blank = Object.fromEntries(Object.keys(DEFAULTS).map((name) => [name, '']));
    expect(parsed(blank)).toEqual(parsed({}));
  });

  it('DEFAULTS quotes the same values the parser applies', () => {
    const { config } = parsed({});
    const pod = config.pods[0];
    expect([
      pod.name,
      pod.podPort,
      pod.minVramGb,
      pod.maxPricePerHour,
      pod.idleMinutes,
      config.checkSeconds,
      pod.maxRuntimeMinutes,
      pod.bootGraceMinutes,
      config.redis.url,
      config.redis.prefix,
      config.http.port,
      config.wake.pollIntervalMs,
      config.orphanGraceMinutes,
      config.logLevel,
    ]).toEqual([
      DEFAULTS.RUNPOD_POD_NAME,
      DEFAULTS.RUNPOD_POD_PORT,
      DEFAULTS.RUNPOD_MIN_VRAM_GB,
      DEFAULTS.RUNPOD_MAX_PRICE_PER_HOUR,
      DEFAULTS.IDLE_MINUTES,
      DEFAULTS.CHECK_SECONDS,
      DEFAULTS.MAX_RUNTIME_MINUTES,
      DEFAULTS.RUNPOD_BOOT_GRACE_MINUTES,
      DEFAULTS.REDIS_URL,
      DEFAULTS.QUEUE_PREFIX,
      DEFAULTS.PORT,
      DEFAULTS.WAKE_POLL_INTERVAL_MS,
      DEFAULTS.ORPHAN_GRACE_MINUTES,
      DEFAULTS.LOG_LEVEL,
    ]);
  });
});

describe('parseConfig reads each variable', () => {
  const rows: [string, string, (config: PodwardenConfig) => unknown, unknown][] = [
    ['RUNPOD_API_KEY', 'rpa_key', (c) => c.runpod.apiKey, 'rpa_key'],
    ['RUNPOD_API_KEY', ' rpa_key\n', (c) => c.runpod.apiKey, 'rpa_key'],
    ['RUNPOD_V2_BASE_URL', 'http://127.0.0.1:9000/v2', (c) => c.runpod.baseUrl, 'http://127.0.0.1:9000/v2'],
    ['RUNPOD_V2_BASE_URL', 'http://127.0.0.1:9000/v2/', (c) => c.runpod.baseUrl, 'http://127.0.0.1:9000/v2'],
    ['RUNPOD_V2_BASE_URL', 'http://127.0.0.1:9000/v2//', (c) => c.runpod.baseUrl, 'http://127.0.0.1:9000/v2'],
    [
      'RUNPOD_PROXY_URL_TEMPLATE',
      'http://127.0.0.1:9000/proxy/{podId}/{port}/',
      (c) => c.runpod.proxyUrlTemplate,
      'http://127.0.0.1:9000/proxy/{podId}/{port}',
    ],
    ['RUNPOD_VOLUME_ID', 'bjn7d94ej9', (c) => c.pods[0].volumeId, 'bjn7d94ej9'],
    ['RUNPOD_VOLUME_ID', ' bjn7d94ej9\n', (c) => c.pods[0].volumeId, 'bjn7d94ej9'],
    ['RUNPOD_TEMPLATE_ID', 'cnz5fxyadi', (c) => c.pods[0].templateId, 'cnz5fxyadi'],
    ['RUNPOD_DATACENTER_ID', 'US-TX-3', (c) => c.pods[0].datacenterId, 'US-TX-3'],
    ['RUNPOD_POD_NAME', 'Llama-3.1_70b', (c) => c.pods[0].name, 'Llama-3.1_70b'],
    ['RUNPOD_POD_PORT', '8001', (c) => c.pods[0].podPort, 8001],
    ['RUNPOD_MIN_VRAM_GB', '0', (c) => c.pods[0].minVramGb, 0],
    ['RUNPOD_MAX_PRICE_PER_HOUR', '2.00', (c) => c.pods[0].maxPricePerHour, 2],
    ['RUNPOD_MAX_PRICE_PER_HOUR', '1.59', (c) => c.pods[0].maxPricePerHour, 1.59],
    ['RUNPOD_MAX_PRICE_PER_HOUR', '0', (c) => c.pods[0].maxPricePerHour, 0],
    [
      'RUNPOD_GPU_ALLOWLIST',
      ' NVIDIA A100 80GB PCIe , ,nvidia h100 80gb hbm3,',
      (c) => c.pods[0].gpuAllowlist,
      ['NVIDIA A100 80GB PCIe', 'nvidia h100 80gb hbm3'],
    ],
    ['RUNPOD_GPU_ALLOWLIST', ' , ', (c) => c.pods[0].gpuAllowlist, []],
    ['IDLE_MINUTES', '0.1', (c) => c.pods[0].idleMinutes, 0.1],
    ['CHECK_SECONDS', '1', (c) => c.checkSeconds, 1],
    ['MAX_RUNTIME_MINUTES', '0', (c) => c.pods[0].maxRuntimeMinutes, 0],
    ['RUNPOD_BOOT_GRACE_MINUTES', '0', (c) => c.pods[0].bootGraceMinutes, 0],
    ['RUNPOD_BOOT_GRACE_MINUTES', '2.5', (c) => c.pods[0].bootGraceMinutes, 2.5],
    ['RIG_OPERATOR_TOKEN', 'op-token', (c) => c.operatorToken, 'op-token'],
    ['RIG_WAKE_TOKEN', 'wake-token', (c) => c.wakeToken, 'wake-token'],
    [
      'REDIS_URL',
      'rediss://user:pw@redis.internal:6380/2',
      (c) => c.redis.url,
      'rediss://user:pw@redis.internal:6380/2',
    ],
    ['QUEUE_PREFIX', 'test:run-1_a', (c) => c.redis.prefix, 'test:run-1_a'],
    ['PORT', '65535', (c) => c.http.port, 65535],
    ['HOST', '127.0.0.1', (c) => c.http.host, '127.0.0.1'],
    ['HOST', ' 127.0.0.1 ', (c) => c.http.host, '127.0.0.1'],
    ['HEALTH_PORT', '9100', (c) => c.healthPort, 9100],
    ['PROXY_PORT', '9081', (c) => c.proxy.port, 9081],
    ['PROXY_HOLD_SECONDS', '120', (c) => c.pods[0].proxyHoldSeconds, 120],
    ['PROXY_MAX_HELD', '0', (c) => c.proxy.maxHeld, 0],
    ['RIG_INFERENCE_TOKEN', ' sk-local\n', (c) => c.pods[0].inferenceToken, 'sk-local'],
    ['OPERATOR_GATE', 'off', (c) => c.operatorGate, 'off'],
    ['OPERATOR_GATE', 'OFF', (c) => c.operatorGate, 'off'],
    ['WAKE_MAX_POLLS', '1', (c) => c.wake.maxPolls, 1],
    ['WAKE_POLL_INTERVAL_MS', '1', (c) => c.wake.pollIntervalMs, 1],
    ['WAKE_MAX_RETRY_AFTER_SECONDS', '0', (c) => c.wake.maxRetryAfterSeconds, 0],
    ['WAKE_REQUEST_WAIT_SECONDS', '0', (c) => c.wake.requestWaitSeconds, 0],
    ['POD_NAME_PREFIX', 'pw-test-', (c) => c.podNamePrefix, 'pw-test-'],
    ['MAX_RUNTIME_MINUTES', '0.2', (c) => c.pods[0].maxRuntimeMinutes, 0.2],
    ['ORPHAN_GRACE_MINUTES', '0', (c) => c.orphanGraceMinutes, 0],
    ['ORPHAN_GRACE_MINUTES', '2.5', (c) => c.orphanGraceMinutes, 2.5],
    ['STOP_CONFIRM_TICKS', '1', (c) => c.stopConfirm.ticks, 1],
    ['STOP_CONFIRM_MAX_RESTOPS', '0', (c) => c.stopConfirm.maxRestops, 0],
    ['DAILY_BUDGET_USD', '25.00', (c) => c.dailyBudgetUsd, 25],
    ['DAILY_BUDGET_USD', '0.01', (c) => c.dailyBudgetUsd, 0.01],
    ['KEEP_ALIVE_MAX_MINUTES', '90', (c) => c.keepAliveMaxMinutes, 90],
    ['KEEP_ALIVE_MAX_MINUTES', '0.5', (c) => c.keepAliveMaxMinutes, 0.5],
    ['IDLE_DRY_RUN', 'true', (c) => c.idleDryRun, true],
    ['IDLE_DRY_RUN', 'TRUE', (c) => c.idleDryRun, true],
    ['IDLE_DRY_RUN', '1', (c) => c.idleDryRun, true],
    ['IDLE_DRY_RUN', 'yes', (c) => c.idleDryRun, true],
    ['IDLE_DRY_RUN', 'false', (c) => c.idleDryRun, false],
    ['IDLE_DRY_RUN', '0', (c) => c.idleDryRun, false],
    ['IDLE_DRY_RUN', 'no', (c) => c.idleDryRun, false],
    ['IDLE_POLICY', 'adaptive', (c) => c.pods[0].idlePolicy, 'adaptive'],
    ['IDLE_POLICY', 'Fixed', (c) => c.pods[0].idlePolicy, 'fixed'],
    ['IDLE_MIN_MINUTES', '0.5', (c) => c.rhythm.minMinutes, 0.5],
    ['IDLE_MAX_MINUTES', '30', (c) => c.rhythm.maxMinutes, 30],
    ['PREWAKE', 'off', (c) => c.rhythm.prewake, false],
    ['PREWAKE', 'ON', (c) => c.rhythm.prewake, true],
    ['PREWAKE_MAX_PER_DAY', '0', (c) => c.rhythm.prewakeMaxPerDay, 0],
    ['USAGE_RETENTION_DAYS', '7', (c) => c.rhythm.usageRetentionDays, 7],
    ['LOG_LEVEL', 'debug', (c) => c.logLevel, 'debug'],
    ['LOG_LEVEL', 'WARN', (c) => c.logLevel, 'warn'],
    ['LOG_LEVEL', 'fatal', (c) => c.logLevel, 'fatal'],
    ['LOG_LEVEL', 'trace', (c) => c.logLevel, 'trace'],
    ['BILLING_RECONCILE_SECONDS', '60', (c) => c.billing.reconcileSeconds, 60],
    ['BILLING_RECONCILE_SECONDS', '1', (c) => c.billing.reconcileSeconds, 1],
    ['BILLING_LAG_MINUTES', '2.5', (c) => c.billing.lagMinutes, 2.5],
    ['BILLING_LAG_MINUTES', '0', (c) => c.billing.lagMinutes, 0],
    ['BOOT_DIAGNOSE_TICKS', '0', (c) => c.billing.diagnoseAfterTicks, 0],
    ['BOOT_DIAGNOSE_TICKS', '7', (c) => c.billing.diagnoseAfterTicks, 7],
  ];

  it.each(rows)('%s=%j is accepted without a warning', (variable, value, pick, expected) => {
    const result = parsed({ [variable]: value });
    expect(pick(result.config)).toEqual(expected);
    expect(result.warnings).toEqual([]);
  });
});
