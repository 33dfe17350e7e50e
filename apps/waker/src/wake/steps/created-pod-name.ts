import type { PodConfig, PodwardenConfig } from '@podwarden/policies';

/** `{POD_NAME_PREFIX}{pod}-{UTC stamp}`: the orphan reaper only ever touches names with the prefix. */
export function createdPodName(config: PodwardenConfig, pod: PodConfig, now: Date): string {
  return `${config.podNamePrefix}${pod.name}-${utcStamp(now)}`;
}

/** 20261130T101500Z: sortable, and legal in a RunPod pod name. */
export function utcStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}
