import type { IdlePolicyName, LogLevel, OperatorGate } from './config-types';

/**
 * The default of every environment variable, keyed by its name, so the parser,
 * the docs and the apps quote one source. `null` means "unset": no value and no
 * behaviour (unconfigured, no token, no budget, no health port, no pods file).
 */
export const DEFAULTS = {
  RUNPOD_API_KEY: null,
  RUNPOD_V2_BASE_URL: 'https://api.runpod.io/v2',
  RUNPOD_VOLUME_ID: '',
  RUNPOD_TEMPLATE_ID: '',
  RUNPOD_DATACENTER_ID: 'EU-RO-1',
  RUNPOD_POD_NAME: 'qwen',
  RUNPOD_POD_PORT: 8000,
  RUNPOD_MIN_VRAM_GB: 32,
  // Read the price-cap incident before lowering or relying on this: at 1.00 USD/h
  // nearly every card that holds a 32B model is refused.
  RUNPOD_MAX_PRICE_PER_HOUR: 1.0,
  RUNPOD_GPU_ALLOWLIST: [] as readonly string[],
  IDLE_MINUTES: 15,
  CHECK_SECONDS: 60,
  MAX_RUNTIME_MINUTES: 360,
  RUNPOD_BOOT_GRACE_MINUTES: 20,
  RIG_OPERATOR_TOKEN: null,
  RIG_WAKE_TOKEN: null,
  REDIS_URL: 'redis://127.0.0.1:6379',
  REDIS_SENTINELS: null,
  REDIS_SENTINEL_NAME: null,
  REDIS_CLUSTER_NODES: null,
  QUEUE_PREFIX: 'podwarden',
  PORT: 8080,
  HOST: '0.0.0.0',
  RUNPOD_PROXY_URL_TEMPLATE: 'https://{podId}-{port}.proxy.runpod.net',
  OPERATOR_GATE: 'on' as OperatorGate,
  WAKE_MAX_POLLS: 30,
  WAKE_POLL_INTERVAL_MS: 10000,
  WAKE_MAX_RETRY_AFTER_SECONDS: 30,
  // RunPod's list has been seen lagging a create by seconds; a create can land well after a client timeout.
  WAKE_CREATE_SETTLE_SECONDS: 60,
  WAKE_REQUEST_WAIT_SECONDS: 25,
  WAKE_JOB_LOCK_MS: 30000,
  PODS_CONFIG: null,
  POD_NAME_PREFIX: 'podwarden-',
  ORPHAN_GRACE_MINUTES: 10,
  DAILY_BUDGET_USD: null,
  // Ticks an accepted stop may still show its pod up before it is sent again, and how often.
  STOP_CONFIRM_TICKS: 3,
  STOP_CONFIRM_MAX_RESTOPS: 2,
  // The longest keep-alive one request may set; at most a day, so a forgotten one still lapses.
  KEEP_ALIVE_MAX_MINUTES: 1440,
  IDLE_DRY_RUN: false,
  // RunPod's billing is read this often (it moves by the hour) and trusted to lag this much.
  BILLING_RECONCILE_SECONDS: 900,
  BILLING_LAG_MINUTES: 10,
  // Booting ticks after which a boot started by us is diagnosed from its logs (0: never).
  BOOT_DIAGNOSE_TICKS: 3,
  HEALTH_PORT: null,
  LOG_LEVEL: 'info' as LogLevel,
  PROXY_PORT: 8081,
  PROXY_HOLD_SECONDS: 0,
  PROXY_MAX_HELD: 100,
  RIG_INFERENCE_TOKEN: null,
  // Tuning: how hard each worker works and how long anything may wait. Not
  // guards (none of them widens a cost rule), but every one is named here so
  // no number hides inline in an app.
  WAKE_CONCURRENCY: 8,
  IDLE_CONCURRENCY: 4,
  IDLE_QUIET_CONCURRENCY: 32,
  IDLE_POD_LOCK_MS: 5000,
  SHUTDOWN_GRACE_MS: 10000,
  REDIS_READ_TIMEOUT_MS: 1500,
  REDIS_WRITE_TIMEOUT_MS: 3000,
  RUNPOD_CONNECT_TIMEOUT_MS: 5000,
  RUNPOD_TIMEOUT_MS: 10000,
  RUNPOD_METRICS_TIMEOUT_MS: 5000,
  JOB_KEEP_COMPLETED_SECONDS: 3600,
  JOB_KEEP_FAILED_SECONDS: 86400,
  STATUS_MAX_AGE_MS: 2000,
  // The learned idle window (docs/idle-monitor.md, "Learning the rhythm"): off unless asked for.
  IDLE_POLICY: 'fixed' as IdlePolicyName,
  IDLE_MIN_MINUTES: 2,
  // Unset: each pod's IDLE_MINUTES, so adaptive never waits longer than the fixed window.
  IDLE_MAX_MINUTES: null,
  // Unset: on wherever the policy is adaptive.
  PREWAKE: null,
  PREWAKE_MAX_PER_DAY: 4,
  USAGE_RETENTION_DAYS: 28,
} as const;

export type ConfigVariable = keyof typeof DEFAULTS;

/** Variables whose values must never appear in a log line, warning or error. */
export const SECRET_VARIABLES: readonly ConfigVariable[] = [
  'RUNPOD_API_KEY',
  'RIG_OPERATOR_TOKEN',
  'RIG_WAKE_TOKEN',
  'RIG_INFERENCE_TOKEN',
];
