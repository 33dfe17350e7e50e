import { freePort } from '../support/free-port';
import { resetSim } from '../support/sim-admin';
import { Stack } from '../support/stack';

export type ScrapedApp = 'gateway' | 'waker' | 'idle-monitor' | 'inference-proxy';
export const SCRAPED_APPS: readonly ScrapedApp[] = ['gateway', 'waker', 'idle-monitor', 'inference-proxy'];

/** A stack whose four podwarden apps each serve /metrics, the budget set so its gauge is exported. */
export interface MetricsStack {
  readonly stack: Stack;
  /** host:port of each app's /metrics, in SCRAPED_APPS order. */
  readonly targets: Record<ScrapedApp, string>;
}

export async function startMetricsStack(
  name: string,
  env: Record<string, string> = {},
): Promise<MetricsStack> {
  const stack = await Stack.start({ name, env: { DAILY_BUDGET_USD: '25.00', ...env } });
  await resetSim(stack);
  const wakerPort = await freePort();
  const monitorPort = await freePort();
  await stack.startWaker({ HEALTH_PORT: String(wakerPort) });
  await stack.startIdleMonitor({ HEALTH_PORT: String(monitorPort) });
  const proxyUrl = await stack.startProxy();
  return {
    stack,
    targets: {
      gateway: new URL(stack.gatewayUrl).host,
      waker: `127.0.0.1:${wakerPort}`,
      'idle-monitor': `127.0.0.1:${monitorPort}`,
      'inference-proxy': new URL(proxyUrl).host,
    },
  };
}

/** Metric names a /metrics text declares (# TYPE lines), with their types. */
export function declaredMetrics(exposition: string): Map<string, string> {
  const declared = new Map<string, string>();
  for (const match of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) declared.set(match[1], match[2]);
  return declared;
}
