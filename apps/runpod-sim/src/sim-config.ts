import { readFileSync } from 'node:fs';
import { DEFAULT_SCENARIO } from './default-scenario';
import { parseScenarioPatch, Scenario } from './scenario';

/**
 * The standalone process's configuration from the environment. Anything
 * structurally unusable is one clear error line, never a silent default.
 */
export interface SimConfig {
  readonly port: number;
  readonly host: string;
  readonly apiKey: string | null;
  readonly scenario: Scenario;
  readonly scenarioPath: string | null;
}

export type SimConfigResult =
  { readonly ok: true; readonly config: SimConfig } | { readonly ok: false; readonly error: string };

export const DEFAULT_SIM_PORT = 8090;
export const DEFAULT_SIM_HOST = '127.0.0.1';

export function loadSimConfig(
  env: Readonly<Record<string, string | undefined>>,
  readText: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): SimConfigResult {
  const port = readPort(env.SIM_PORT);
  if (port === null) return fail(`SIM_PORT="${env.SIM_PORT ?? ''}" is not a port number (0-65535)`);
  const host = blankToNull(env.SIM_HOST) ?? DEFAULT_SIM_HOST;

  const scenarioPath = blankToNull(env.SIM_SCENARIO);
  let scenario = DEFAULT_SCENARIO;
  if (scenarioPath !== null) {
    let raw: unknown;
    try {
      raw = JSON.parse(readText(scenarioPath)) as unknown;
    } catch (error) {
      const reason = error instanceof SyntaxError ? 'is not valid JSON' : 'cannot be read';
      return fail(
        `SIM_SCENARIO=${scenarioPath} ${reason}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const parsed = parseScenarioPatch(raw, DEFAULT_SCENARIO, 'scenario');
    if (!parsed.ok) return fail(`SIM_SCENARIO=${scenarioPath}: ${parsed.error}`);
    scenario = parsed.value;
  }

  const speedText = blankToNull(env.SIM_SPEED);
  if (speedText !== null) {
    const speed = /^\d+(\.\d+)?$/.test(speedText) ? Number(speedText) : Number.NaN;
    if (!(speed >= 0.001 && speed <= 1_000_000)) {
      return fail(`SIM_SPEED="${speedText}" is not a positive speed factor (e.g. 1, 60, 0.5)`);
    }
    scenario = { ...scenario, speed };
  }

  return { ok: true, config: { port, host, apiKey: blankToNull(env.SIM_API_KEY), scenario, scenarioPath } };
}

function readPort(text: string | undefined): number | null {
  const value = blankToNull(text);
  if (value === null) return DEFAULT_SIM_PORT;
  if (!/^\d+$/.test(value)) return null;
  const port = Number(value);
  return port <= 65535 ? port : null;
}

function blankToNull(value: string | undefined): string | null {
  return value === undefined || value.trim() === '' ? null : value.trim();
}

function fail(error: string): SimConfigResult {
  return { ok: false, error };
}
