import { DEFAULTS } from './config-defaults';
import type { PodConfig } from './config-types';
import { POD_GUARDS } from './pod-guards';
import { readIdlePolicy } from './rhythm-setting';
import { Environment, readGuard, readList, readSecret, readString } from './read-environment';

/**
 * The pod described by the RUNPOD_* variables: the whole list when PODS_CONFIG
 * is unset, and the source of every field a pods file omits.
 */
export function readEnvironmentPod(env: Environment, warnings: string[]): PodConfig {
  const pod: PodConfig = {
    name: readString(env, 'RUNPOD_POD_NAME', DEFAULTS.RUNPOD_POD_NAME),
    volumeId: readString(env, 'RUNPOD_VOLUME_ID', DEFAULTS.RUNPOD_VOLUME_ID),
    templateId: readString(env, 'RUNPOD_TEMPLATE_ID', DEFAULTS.RUNPOD_TEMPLATE_ID),
    datacenterId: readString(env, 'RUNPOD_DATACENTER_ID', DEFAULTS.RUNPOD_DATACENTER_ID),
    gpuAllowlist: readList(env, 'RUNPOD_GPU_ALLOWLIST'),
    podPort: DEFAULTS.RUNPOD_POD_PORT,
    minVramGb: DEFAULTS.RUNPOD_MIN_VRAM_GB,
    maxPricePerHour: DEFAULTS.RUNPOD_MAX_PRICE_PER_HOUR,
    idleMinutes: DEFAULTS.IDLE_MINUTES,
    bootGraceMinutes: DEFAULTS.RUNPOD_BOOT_GRACE_MINUTES,
    maxRuntimeMinutes: DEFAULTS.MAX_RUNTIME_MINUTES,
    proxyHoldSeconds: DEFAULTS.PROXY_HOLD_SECONDS,
    inferenceToken: readSecret(env, 'RIG_INFERENCE_TOKEN'),
    idlePolicy: readIdlePolicy(env, warnings),
  };
  for (const guard of POD_GUARDS) {
    pod[guard.field] = readGuard(env, guard.variable, guard.rule, pod[guard.field], warnings);
  }
  return pod;
}
