import type { RedisTopology } from './redis-topology';

/** One pod the apps manage, keyed on its friendly name (matched case-insensitively). */
export interface PodConfig {
  name: string;
  /** The network volume that identifies the pod; blank ⇒ this pod is unconfigured. */
  volumeId: string;
  /** Template for a replacement pod; blank ⇒ the wake refuses to create. */
  templateId: string;
  datacenterId: string;
  podPort: number;
  minVramGb: number;
  /** Inclusive secure-cloud USD/h cap. */
  maxPricePerHour: number;
  /** GPU ids as given; empty ⇒ no allowlist. Matching is case-insensitive elsewhere. */
  gpuAllowlist: string[];
  idleMinutes: number;
  /** 0 disables the never-ready guard. */
  bootGraceMinutes: number;
  /** 0 disables the wall-clock cap. */
  maxRuntimeMinutes: number;
  /** How long the inference proxy holds a request for this pod while it wakes; 0 ⇒ shed at once with 503. */
  proxyHoldSeconds: number;
  /** Client token of the inference proxy for this pod; null ⇒ the proxy answers 503. A secret: never log it. */
  inferenceToken: string | null;
  /** `fixed`: the seed's window of idleMinutes; `adaptive`: a window learned from the pod's own usage, plus pre-wake. */
  idlePolicy: IdlePolicyName;
}

export type IdlePolicyName = 'fixed' | 'adaptive';

/** The adaptive idle policy's bounds and pre-wake, shared by every pod that uses it. */
export interface RhythmConfig {
  /** The learned window's floor, minutes. */
  readonly minMinutes: number;
  /** Its ceiling; null ⇒ each pod's own idleMinutes. */
  readonly maxMinutes: number | null;
  readonly prewake: boolean;
  readonly prewakeMaxPerDay: number;
  readonly usageRetentionDays: number;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

export type OperatorGate = 'on' | 'off';

/** Everything every app reads at start-up, parsed once. */
export interface PodwardenConfig {
  runpod: {
    /** Null ⇒ unconfigured. A secret: never log it. */
    apiKey: string | null;
    /** Without a trailing slash. */
    baseUrl: string;
    /** Contains `{podId}` (and usually `{port}`); without a trailing slash. */
    proxyUrlTemplate: string;
  };
  /** Never empty. */
  pods: PodConfig[];
  redis: {
    url: string;
    /**
     * Namespaces every Redis key so separate stacks sharing one Redis never
     * collide: QUEUE_PREFIX, hash-tagged (`{podwarden}`) on a cluster so each
     * script's keys and each queue's keys share one slot.
     */
    prefix: string;
    /** Standalone (REDIS_URL), Sentinel or Cluster. */
    topology: RedisTopology;
  };
  http: { port: number; host: string };
  /** The inference proxy: its listen port and the held requests per pod beyond which it sheds. */
  proxy: { port: number; maxHeld: number };
  /** Health and metrics port of a worker app; null ⇒ none. */
  healthPort: number | null;
  checkSeconds: number;
  operatorGate: OperatorGate;
  /** A secret: never log it. */
  operatorToken: string | null;
  /** A secret: never log it. */
  wakeToken: string | null;
  wake: {
    maxPolls: number;
    pollIntervalMs: number;
    maxRetryAfterSeconds: number;
    /** How long a create in doubt blocks the next create on the volume while the volume is re-read. */
    createSettleSeconds: number;
    requestWaitSeconds: number;
    /** BullMQ job lock and the wake gate's lease: how soon a crashed waker's wake is re-delivered. */
    jobLockMs: number;
  };
  podNamePrefix: string;
  orphanGraceMinutes: number;
  /** Confirmed stops: ticks a stopped pod may still be seen up before a re-stop, and how many re-stops. */
  stopConfirm: { ticks: number; maxRestops: number };
  /** Null ⇒ no daily budget. A set value that does not parse refuses the whole config. */
  dailyBudgetUsd: number | null;
  /** The longest keep-alive one request may set, in minutes (≤ 1440). */
  keepAliveMaxMinutes: number;
  idleDryRun: boolean;
  rhythm: RhythmConfig;
  billing: BillingSettings;
  logLevel: LogLevel;
  tuning: TuningConfig;
}

/** Provider billing and boot diagnosis (docs/cost-guards.md, docs/runbook.md). */
export interface BillingSettings {
  /** The reconcile job's period (one job per period across every idle monitor). */
  readonly reconcileSeconds: number;
  /** How long RunPod's billing is trusted to lag: a run's billed amount is shown only once past its stop by this. */
  readonly lagMinutes: number;
  /** Booting ticks of a pod we started after which its logs are read and its boot classified; 0 disables. */
  readonly diagnoseAfterTicks: number;
}

/** Worker sizes, timeouts and retention: every tuning number in one place (see DEFAULTS for each default). */
export interface TuningConfig {
  /** Wake jobs one waker runs at once (each on its own volume: the gate serialises a volume). */
  readonly wakeConcurrency: number;
  /** Pods one idle tick evaluates at once, and pods of one volume scraped at once. */
  readonly idleConcurrency: number;
  /** Pods one idle tick evaluates at once whose volume the list shows empty: Redis work only, no RunPod or proxy call. */
  readonly idleQuietConcurrency: number;
  /** Lease of the per-pod idle lock; renewed while a tick runs, so a dead holder frees the pod within it. */
  readonly idlePodLockMs: number;
  /** How long a worker waits for its running job at shutdown before handing it back for re-delivery. */
  readonly shutdownGraceMs: number;
  /** Bound on a Redis read on a request path (GET fields, job state): an answer, never a hang. */
  readonly redisReadTimeoutMs: number;
  /** Bound on a durable record or state write; a write past it is logged in full at Error. */
  readonly redisWriteTimeoutMs: number;
  readonly runpodConnectTimeoutMs: number;
  /** Headers and body budget of one control-plane call. */
  readonly runpodTimeoutMs: number;
  /** Budget of one /metrics scrape (every tick, so shorter than the control plane's). */
  readonly metricsTimeoutMs: number;
  /** Finished jobs are kept this long (joiners and waitUntilFinished read them), failed ones longer. */
  readonly keepCompletedJobsSeconds: number;
  readonly keepFailedJobsSeconds: number;
  /** How old a status snapshot may be before a GET refreshes it (one refresh across every gateway). */
  readonly statusMaxAgeMs: number;
}
