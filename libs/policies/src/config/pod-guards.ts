import { GUARD_RULES, GuardRule } from './guard-rule';

export type PodGuardField =
  | 'podPort'
  | 'minVramGb'
  | 'maxPricePerHour'
  | 'idleMinutes'
  | 'bootGraceMinutes'
  | 'maxRuntimeMinutes'
  | 'proxyHoldSeconds';

export interface PodGuard {
  readonly field: PodGuardField;
  readonly variable:
    | 'RUNPOD_POD_PORT'
    | 'RUNPOD_MIN_VRAM_GB'
    | 'RUNPOD_MAX_PRICE_PER_HOUR'
    | 'IDLE_MINUTES'
    | 'RUNPOD_BOOT_GRACE_MINUTES'
    | 'MAX_RUNTIME_MINUTES'
    | 'PROXY_HOLD_SECONDS';
  readonly rule: GuardRule;
}

/** The per-pod guards, each with its environment variable; one table so a pods file and the environment apply the same rule. */
export const POD_GUARDS: readonly PodGuard[] = [
  { field: 'podPort', variable: 'RUNPOD_POD_PORT', rule: GUARD_RULES.port },
  { field: 'minVramGb', variable: 'RUNPOD_MIN_VRAM_GB', rule: GUARD_RULES.nonNegativeInteger },
  { field: 'maxPricePerHour', variable: 'RUNPOD_MAX_PRICE_PER_HOUR', rule: GUARD_RULES.pricePerHour },
  { field: 'idleMinutes', variable: 'IDLE_MINUTES', rule: GUARD_RULES.positiveDecimal },
  // 0 disables the never-ready guard; decimals allowed like IDLE_MINUTES.
  { field: 'bootGraceMinutes', variable: 'RUNPOD_BOOT_GRACE_MINUTES', rule: GUARD_RULES.nonNegativeDecimal },
  // 0 disables the wall-clock cap; decimals allowed (docs/contract.md: every minute setting takes them).
  { field: 'maxRuntimeMinutes', variable: 'MAX_RUNTIME_MINUTES', rule: GUARD_RULES.nonNegativeDecimal },
  // 0 means "do not hold": the proxy sheds with 503 and Retry-After at once.
  { field: 'proxyHoldSeconds', variable: 'PROXY_HOLD_SECONDS', rule: GUARD_RULES.timerSeconds },
];
