import type { PodwardenConfig } from './config-types';
import { isPodConfigured } from './pod-lookup';

/** Which pods an idle monitor can watch, and what keeps it from watching the rest. */
export interface MonitorSetup {
  /** Every pod is watched: the API key is set and every pod has a volume. */
  readonly configured: boolean;
  /** Names of the pods it watches (it calls RunPod only for these). */
  readonly watched: readonly string[];
  /** What is missing, each naming its setting; empty when configured. */
  readonly missing: readonly string[];
}

/**
 * A pod without a key or a volume is skipped by every tick: nothing may call
 * RunPod for it, so a monitor that watches nothing must say so, not tick quietly.
 */
export function monitorSetup(config: PodwardenConfig): MonitorSetup {
  const missing: string[] = [];
  if (config.runpod.apiKey === null) missing.push('RUNPOD_API_KEY');
  const volumeless = config.pods.filter((pod) => pod.volumeId.trim() === '').map((pod) => `"${pod.name}"`);
  if (volumeless.length > 0)
    missing.push(`a volume for ${volumeless.join(', ')} (RUNPOD_VOLUME_ID, or volumeId in PODS_CONFIG)`);
  const watched = config.pods.filter((pod) => isPodConfigured(config, pod)).map((pod) => pod.name);
  return { configured: missing.length === 0, watched, missing };
}

/** The one start-up Warning of an unconfigured monitor; null when configured. */
export function monitorSetupWarning(setup: MonitorSetup): string | null {
  if (setup.configured) return null;
  const reach =
    setup.watched.length === 0
      ? 'it watches no pod and stops nothing'
      : `it watches only ${setup.watched.map((name) => `"${name}"`).join(', ')}`;
  return `idle monitor unconfigured, missing ${setup.missing.join(' and ')}: ${reach}`;
}
