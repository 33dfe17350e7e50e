import type { PodConfig, PodwardenConfig } from './config-types';

/** The configured pod a route's {name} means, matched case-insensitively; null for an unknown name. */
export function findPod(config: PodwardenConfig, name: string): PodConfig | null {
  const key = name.toLowerCase();
  return config.pods.find((pod) => pod.name.toLowerCase() === key) ?? null;
}

/** A pod can be acted on only with an API key and a volume to find it by; otherwise nothing may call RunPod for it. */
export function isPodConfigured(config: PodwardenConfig, pod: PodConfig): boolean {
  return config.runpod.apiKey !== null && pod.volumeId.trim() !== '';
}

/**
 * The pod's proxy base URL. The id is URL-encoded so an odd id from the API
 * cannot reshape the URL; RunPod ids are plain alphanumerics, so this is
 * normally a no-op.
 */
export function proxyUrlFor(template: string, podId: string, port: number): string {
  return template.split('{podId}').join(encodeURIComponent(podId)).split('{port}').join(String(port));
}
