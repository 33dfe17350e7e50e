import { findPod, type PodConfig, type PodwardenConfig } from '@podwarden/policies';
import { problem } from '../http/problem';

/** The configured pod a route's {name} means (case-insensitive), or 404 before anything else is touched. */
export function resolvePod(config: PodwardenConfig, name: string): PodConfig {
  const pod = findPod(config, name);
  if (pod === null) {
    throw problem(
      404,
      'unknown-pod',
      'Unknown pod',
      `no pod named ${JSON.stringify(name.slice(0, 100))} is configured`,
    );
  }
  return pod;
}
