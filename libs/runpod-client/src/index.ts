export { RunPodClient, BROWSER_USER_AGENT, UNCONFIGURED } from './runpod-client';
export type { RunPodClientOptions, RunPodLogger, ExchangeTimeouts, RunPodExchange } from './client-options';
export type { CreatePodRequest } from './create-pod-json';
export type { PodActionResult } from './pod-action-result';
export type { PodList } from './pod-list-json';
export { parsePrometheusText, type PrometheusSample } from './prometheus-text';
export { activityFromSamples, VLLM_LOAD_GAUGES, VLLM_WORK_COUNTERS } from './vllm-activity';
export { buildProxyUrl } from './proxy-url';
export { parseRetryAfterSeconds } from './retry-after';
