import { DEFAULTS } from './config-defaults';
import type { IdlePolicyName, RhythmConfig } from './config-types';
import { GUARD_RULES } from './guard-rule';
import { Environment, readChoice, readGuard, readOptionalGuard } from './read-environment';

export const IDLE_POLICY_WORDS: ReadonlyMap<string, IdlePolicyName> = new Map([
  ['fixed', 'fixed'],
  ['adaptive', 'adaptive'],
]);

const SWITCH_WORDS: ReadonlyMap<string, boolean> = new Map([
  ['on', true],
  ['off', false],
]);

/** IDLE_POLICY: anything but an exact word keeps the seed's fixed window. */
export function readIdlePolicy(env: Environment, warnings: string[]): IdlePolicyName {
  return readChoice(
    env,
    'IDLE_POLICY',
    IDLE_POLICY_WORDS,
    DEFAULTS.IDLE_POLICY,
    DEFAULTS.IDLE_POLICY,
    warnings,
  );
}

/**
 * The adaptive policy's settings. A bad bound keeps its default; a floor above
 * the ceiling is refused the same way, so the window stays within the pod's own.
 */
export function readRhythmConfig(env: Environment, warnings: string[]): RhythmConfig {
  const maxMinutes = readOptionalGuard(
    env,
    'IDLE_MAX_MINUTES',
    GUARD_RULES.positiveDecimal,
    "each pod's IDLE_MINUTES",
    warnings,
  );
  let minMinutes = readGuard(
    env,
    'IDLE_MIN_MINUTES',
    GUARD_RULES.positiveDecimal,
    DEFAULTS.IDLE_MIN_MINUTES,
    warnings,
  );
  if (maxMinutes !== null && minMinutes > maxMinutes) {
    warnings.push(
      `IDLE_MIN_MINUTES=${minMinutes} is above IDLE_MAX_MINUTES=${maxMinutes}; using ${Math.min(DEFAULTS.IDLE_MIN_MINUTES, maxMinutes)}`,
    );
    minMinutes = Math.min(DEFAULTS.IDLE_MIN_MINUTES, maxMinutes);
  }
  return {
    minMinutes,
    maxMinutes,
    prewake: readChoice(env, 'PREWAKE', SWITCH_WORDS, true, 'on', warnings),
    prewakeMaxPerDay: readGuard(
      env,
      'PREWAKE_MAX_PER_DAY',
      GUARD_RULES.nonNegativeInteger,
      DEFAULTS.PREWAKE_MAX_PER_DAY,
      warnings,
    ),
    usageRetentionDays: readGuard(
      env,
      'USAGE_RETENTION_DAYS',
      GUARD_RULES.positiveInteger,
      DEFAULTS.USAGE_RETENTION_DAYS,
      warnings,
    ),
  };
}
