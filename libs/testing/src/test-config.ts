import { parseConfig, type PodwardenConfig } from '@podwarden/policies';

/** A parsed config for specs: an API key and volume `vol-1` unless `env` overrides them; an env that does not parse throws. */
export function testConfig(env: Record<string, string> = {}): PodwardenConfig {
  const parsed = parseConfig({ RUNPOD_API_KEY: 'k', RUNPOD_VOLUME_ID: 'vol-1', ...env }, null);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
}
