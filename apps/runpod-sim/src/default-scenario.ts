import { Availability, CatalogGpu, Scenario } from './scenario';

/**
 * The default world, modelled on the price-cap incident: the weights volume is
 * pinned to EU-RO-1, most GPUs are not offered there, two that are sit below a
 * 32 GB floor, the capable ones cost more than a 1.00 USD/h cap — and exactly
 * one (the RTX A6000 at 0.49, LOW) is eligible under the default cap, so the
 * default demo can create a pod. The traps are deliberate: RTX 6000 Ada is
 * NONE in EU-RO-1, A40 has no secure price, RTX PRO 4500 has no VRAM figure.
 */
function gpu(
  id: string,
  displayName: string,
  memory: number | null,
  secure: number | null,
  community: number | null,
  dataCenters: readonly (readonly [string, Availability])[],
): CatalogGpu {
  return {
    id,
    displayName,
    memory,
    price: { secure, community },
    availability: null,
    dataCenters: dataCenters.map(([dcId, availability]) => ({ id: dcId, availability })),
  };
}

export const DEFAULT_CATALOG: readonly CatalogGpu[] = [
  // Offered in EU-RO-1.
  gpu('NVIDIA RTX A6000', 'RTX A6000', 48, 0.49, 0.33, [
    ['EU-RO-1', 'LOW'],
    ['US-TX-3', 'HIGH'],
    ['CA-MTL-1', 'MEDIUM'],
  ]),
  gpu('NVIDIA GeForce RTX 4090', 'RTX 4090', 24, 0.69, 0.34, [
    ['EU-RO-1', 'HIGH'],
    ['EU-SE-1', 'HIGH'],
    ['US-TX-3', 'MEDIUM'],
  ]),
  gpu('NVIDIA RTX A5000', 'RTX A5000', 24, 0.27, 0.16, [
    ['EU-RO-1', 'MEDIUM'],
    ['EU-CZ-1', 'HIGH'],
  ]),
  gpu('NVIDIA RTX 6000 Ada Generation', 'RTX 6000 Ada', 48, 0.77, 0.74, [
    ['EU-RO-1', 'NONE'],
    ['US-GA-1', 'MEDIUM'],
  ]),
  gpu('NVIDIA A40', 'A40', 48, null, 0.35, [
    ['EU-RO-1', 'HIGH'],
    ['EU-SE-1', 'LOW'],
  ]),
  gpu('NVIDIA L40S', 'L40S', 48, 1.09, 0.79, [
    ['EU-RO-1', 'MEDIUM'],
    ['US-TX-3', 'HIGH'],
  ]),
  gpu('NVIDIA A100 80GB PCIe', 'A100 PCIe', 80, 1.59, 1.19, [
    ['EU-RO-1', 'MEDIUM'],
    ['US-KS-2', 'LOW'],
  ]),
  gpu('NVIDIA RTX PRO 6000 Blackwell Server Edition', 'RTX PRO 6000 SE', 96, 1.79, 1.69, [
    ['EU-RO-1', 'MEDIUM'],
    ['US-KS-2', 'LOW'],
  ]),
  gpu('AMD Instinct MI300X OAM', 'MI300X', 192, 2.49, 2.09, [
    ['EU-RO-1', 'LOW'],
    ['US-TX-3', 'MEDIUM'],
  ]),
  // Not offered in EU-RO-1.
  gpu('NVIDIA H100 80GB HBM3', 'H100 SXM', 80, 2.69, 2.39, [
    ['US-GA-1', 'MEDIUM'],
    ['US-KS-2', 'HIGH'],
  ]),
  gpu('NVIDIA H100 PCIe', 'H100 PCIe', 80, 2.39, 1.99, [
    ['US-TX-3', 'LOW'],
    ['CA-MTL-1', 'MEDIUM'],
  ]),
  gpu('NVIDIA H100 NVL', 'H100 NVL', 94, 2.79, 2.59, [['US-KS-2', 'LOW']]),
  gpu('NVIDIA H200', 'H200 SXM', 141, 3.59, 3.29, [['US-GA-1', 'LOW']]),
  gpu('NVIDIA B200', 'B200', 180, 5.99, null, [['US-KS-2', 'LOW']]),
  gpu('NVIDIA A100-SXM4-80GB', 'A100 SXM', 80, 1.74, 1.39, [
    ['US-GA-1', 'MEDIUM'],
    ['EU-NL-1', 'LOW'],
  ]),
  gpu('NVIDIA L40', 'L40', 48, 0.99, 0.69, [
    ['US-TX-3', 'MEDIUM'],
    ['CA-MTL-1', 'LOW'],
  ]),
  gpu('NVIDIA L4', 'L4', 24, 0.43, 0.28, [
    ['US-TX-3', 'HIGH'],
    ['EU-SE-1', 'MEDIUM'],
  ]),
  gpu('NVIDIA GeForce RTX 5090', 'RTX 5090', 32, 0.94, 0.69, [
    ['EU-SE-1', 'LOW'],
    ['US-TX-3', 'MEDIUM'],
  ]),
  gpu('NVIDIA GeForce RTX 3090', 'RTX 3090', 24, 0.43, 0.22, [
    ['EU-CZ-1', 'HIGH'],
    ['US-TX-3', 'LOW'],
  ]),
  gpu('NVIDIA RTX 4000 Ada Generation', 'RTX 4000 Ada', 20, 0.26, 0.2, [['EU-SE-1', 'HIGH']]),
  gpu('NVIDIA RTX A4000', 'RTX A4000', 16, 0.25, 0.17, [
    ['EU-CZ-1', 'MEDIUM'],
    ['CA-MTL-1', 'HIGH'],
  ]),
  gpu('NVIDIA RTX PRO 4500 Blackwell', 'RTX PRO 4500', null, 0.64, 0.54, [['CA-MTL-1', 'LOW']]),
];

/**
 * Timings roughly follow the measured A100 wake (create to serving in about
 * 2 min 52 s): 45 s provisioning + 30 s starting + 10 s GPU attach + 90 s
 * model load. Use SIM_SPEED or the scenario to compress them.
 */
export const DEFAULT_SCENARIO: Scenario = {
  speed: 1,
  listOrder: 'created',
  seed: 1,
  balance: 50,
  insufficientBalanceHours: 1,
  timings: {
    provisioningMs: 45_000,
    startingMs: 30_000,
    gpuAttachMs: 10_000,
    modelLoadMs: 90_000,
    chatMs: 2_000,
    terminateMs: 0,
    // Billing history shows a charge minutes after it accrues.
    billingLagMs: 120_000,
  },
  wire: {
    memoryKey: 'memory',
    uptimeKey: 'uptime',
    listShape: 'array',
    attachRuntime: 'null',
    proxyBrowserUaOnly: false,
  },
  vllm: { maxConcurrency: 4, completionTokens: 32, createdSamples: true },
  catalog: DEFAULT_CATALOG,
  volumes: [
    { id: 'vol-eu-ro-1', name: 'qwen-weights', dataCenterId: 'EU-RO-1', sizeGb: 200 },
    { id: 'vol-us-tx-3', name: 'other-weights', dataCenterId: 'US-TX-3', sizeGb: 100 },
  ],
  templates: [
    {
      id: 'tpl-vllm-qwen',
      name: 'vllm-qwen',
      imageName: 'vllm/vllm-openai:v0.11.0',
      modelName: 'Qwen/Qwen2.5-32B-Instruct-AWQ',
      port: 8000,
    },
    {
      id: 'tpl-vllm',
      name: 'vllm',
      imageName: 'vllm/vllm-openai:v0.11.0',
      modelName: 'Qwen/Qwen2.5-7B-Instruct',
      port: 8000,
    },
  ],
  pods: [],
};
