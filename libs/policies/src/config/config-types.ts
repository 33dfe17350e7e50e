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
    /** Namespaces every Redis key so separate stacks sharing one Redis never collide. */
    prefix: string;
  };
  http: { port: number; host: string };
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
    requestWaitSeconds: number;
    /** BullMQ job lock and the wake gate's lease: how soon a crashed waker's wake is re-delivered. */
    jobLockMs: number;
  };
  podNamePrefix: string;
  orphanGraceMinutes: number;
  /** Null ⇒ no daily budget. */
  dailyBudgetUsd: number | null;
  idleDryRun: boolean;
  logLevel: LogLevel;
}
