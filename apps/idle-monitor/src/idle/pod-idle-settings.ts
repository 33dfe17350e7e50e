import { idleSettings, type IdleSettings, type PodConfig, type PodwardenConfig } from '@podwarden/policies';

/** One pod's idle settings: its own minutes (or the window in force), the monitor's tick interval. */
export function settingsOf(
  config: PodwardenConfig,
  pod: PodConfig,
  windowMinutes: number = pod.idleMinutes,
): IdleSettings {
  return idleSettings({
    idleMinutes: windowMinutes,
    checkSeconds: config.checkSeconds,
    bootGraceMinutes: pod.bootGraceMinutes,
    maxRuntimeMinutes: pod.maxRuntimeMinutes,
  });
}
