import { RunPodClient } from '@podwarden/runpod-client';
import type { PodwardenConfig } from '@podwarden/policies';
import type { AppLogger } from '../logging/logger';

export function createRunPodClient(config: PodwardenConfig, logger: AppLogger): RunPodClient {
  return new RunPodClient({
    apiKey: config.runpod.apiKey,
    baseUrl: config.runpod.baseUrl,
    proxyUrlTemplate: config.runpod.proxyUrlTemplate,
    logger: logger.child({ component: 'runpod-client' }),
  });
}
