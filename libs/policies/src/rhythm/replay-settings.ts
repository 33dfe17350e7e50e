import { DEFAULTS } from '../config/config-defaults';
import type { PodConfig, RhythmConfig } from '../config/config-types';
import { readEnvironmentPod } from '../config/environment-pod';
import { GUARD_RULES } from '../config/guard-rule';
import { Environment, readGuard } from '../config/read-environment';
import { readRhythmConfig } from '../config/rhythm-setting';
import type { RhythmSettings } from './pod-rhythm';
import type { ReplaySettings } from './what-if-replay';

/** One pod's rhythm settings as the idle monitor applies them. */
export function rhythmSettingsFor(
  pod: PodConfig,
  rhythm: RhythmConfig,
  checkSeconds: number,
): RhythmSettings {
  const maxMinutes = rhythm.maxMinutes ?? pod.idleMinutes;
  return {
    policy: pod.idlePolicy,
    idleMinutes: pod.idleMinutes,
    minMinutes: Math.min(rhythm.minMinutes, maxMinutes),
    maxMinutes,
    checkSeconds,
    prewake: rhythm.prewake,
    prewakeMaxPerDay: rhythm.prewakeMaxPerDay,
    retentionDays: rhythm.usageRetentionDays,
    fallbackPricePerHour: pod.maxPricePerHour,
  };
}

/**
 * What `podwarden what-if` replays with: the idle settings of the environment's
 * pod, read by the same rules as the apps (a bad value keeps its default and
 * adds a warning).
 */
export function replaySettingsFromEnvironment(env: Environment, warnings: string[]): ReplaySettings {
  const pod = readEnvironmentPod(env, warnings);
  const checkSeconds = readGuard(
    env,
    'CHECK_SECONDS',
    GUARD_RULES.checkSeconds,
    DEFAULTS.CHECK_SECONDS,
    warnings,
  );
  const {
    policy: _policy,
    fallbackPricePerHour: _price,
    ...settings
  } = rhythmSettingsFor(pod, readRhythmConfig(env, warnings), checkSeconds);
  return { ...settings, bootGraceMinutes: pod.bootGraceMinutes, maxRuntimeMinutes: pod.maxRuntimeMinutes };
}
