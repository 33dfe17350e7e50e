import { RunPodClient, RunPodInsights, type RunPodExchange } from '@podwarden/runpod-client';
import type { PodwardenConfig } from '@podwarden/policies';
import type { AppLogger } from '../logging/logger';

export function createRunPodClient(
  config: PodwardenConfig,
  logger: AppLogger,
  onExchange?: (exchange: RunPodExchange) => void,
): RunPodClient {
  const { tuning } = config;
  return new RunPodClient({
    apiKey: config.runpod.apiKey,
    baseUrl: config.runpod.baseUrl,
    proxyUrlTemplate: config.runpod.proxyUrlTemplate,
    timeouts: {
      connectMs: tuning.runpodConnectTimeoutMs,
      headersMs: tuning.runpodTimeoutMs,
      bodyMs: tuning.runpodTimeoutMs,
    },
    // The scrape runs every idle tick: its own, shorter budget (the connect budget stays the client's default).
    metricsTimeouts: { headersMs: tuning.metricsTimeoutMs, bodyMs: tuning.metricsTimeoutMs },
    logger: logger.child({ component: 'runpod-client' }),
    onExchange,
  });
}

/** RunPod's billing and pod logs, on the same key, base URL and control-plane budgets. */
export function createRunPodInsights(
  config: PodwardenConfig,
  logger: AppLogger,
  onExchange?: (exchange: RunPodExchange) => void,
): RunPodInsights {
  const { tuning } = config;
  return new RunPodInsights({
    apiKey: config.runpod.apiKey,
    baseUrl: config.runpod.baseUrl,
    timeouts: {
      connectMs: tuning.runpodConnectTimeoutMs,
      headersMs: tuning.runpodTimeoutMs,
      bodyMs: tuning.runpodTimeoutMs,
    },
    logger: logger.child({ component: 'runpod-insights' }),
    onExchange,
  });
}
