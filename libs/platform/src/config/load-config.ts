import { readFileSync } from 'node:fs';
import { parseConfig, type PodwardenConfig } from '@podwarden/policies';

export interface LoadedConfig {
  readonly config: PodwardenConfig;
  readonly warnings: string[];
}

export type ConfigLoad = { ok: true; loaded: LoadedConfig } | { ok: false; error: string };

/** Reads the environment and the PODS_CONFIG file; every decision about them is the config policy's. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ConfigLoad {
  const podsConfigPath = env.PODS_CONFIG?.trim();
  let podsConfigText: string | null = null;
  if (podsConfigPath) {
    try {
      podsConfigText = readFileSync(podsConfigPath, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      return {
        ok: false,
        error: `PODS_CONFIG file ${JSON.stringify(podsConfigPath)} cannot be read (${code})`,
      };
    }
  }
  const result = parseConfig(env, podsConfigText);
  return result.ok ? { ok: true, loaded: { config: result.config, warnings: result.warnings } } : result;
}

/** Structurally unusable config: one clear line on stderr and a non-zero exit, before anything starts. */
export function loadConfigOrExit(app: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const result = loadConfig(env);
  if (!result.ok) {
    process.stderr.write(`[${app}] configuration error: ${result.error}\n`);
    process.exit(2);
  }
  return result.loaded;
}
