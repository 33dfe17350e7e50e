import type { Availability, GpuCatalogEntry } from '@podwarden/policies';

export const OUR_DATACENTER = 'EU-RO-1';

export function gpu(
  id: string,
  securePrice: number | null,
  options: { vramGb?: number | null; availability?: Availability; dataCenters?: string[] } = {},
): GpuCatalogEntry {
  const availability = options.availability ?? 'HIGH';
  return {
    id,
    securePrice,
    availability,
    vramGb: options.vramGb === undefined ? 48 : options.vramGb,
    dataCenters: (options.dataCenters ?? [OUR_DATACENTER]).map((dc) => ({ id: dc, availability })),
  };
}

/**
 * Under the test config's 2.00 USD/h cap and 32 GB floor the eligible cards rank L40S, A100, A6000; a card
 * too small, one too expensive and one in another datacenter prove the walk posts only eligible cards,
 * cheapest first.
 */
export const L40S = 'NVIDIA L40S';
export const A100 = 'NVIDIA A100 80GB PCIe';
export const A6000 = 'NVIDIA RTX A6000';

export const RANKED_CATALOG: GpuCatalogEntry[] = [
  gpu(A100, 1.19, { vramGb: 80, availability: 'MEDIUM' }),
  gpu('NVIDIA RTX A5000', 0.29, { vramGb: 24 }),
  gpu(L40S, 0.86, { vramGb: 48 }),
  gpu('NVIDIA H100 80GB HBM3', 2.69, { vramGb: 80 }),
  gpu('NVIDIA GeForce RTX 4090', 0.69, { vramGb: 24, dataCenters: ['US-TX-3'] }),
  gpu(A6000, 1.49, { vramGb: 48, availability: 'LOW' }),
];

export const PRICES: Readonly<Record<string, number>> = { [L40S]: 0.86, [A100]: 1.19, [A6000]: 1.49 };

/**
 * Shaped like the price-cap incident: pinned datacenter, small cards under the VRAM floor, capable ones
 * above a 1.00 cap, the one cheap capable card without capacity. Nothing is eligible, and the refusal must
 * name every card with its reason.
 */
export const INCIDENT_CATALOG: GpuCatalogEntry[] = [
  gpu('NVIDIA GeForce RTX 4090', 0.69, { vramGb: 24, dataCenters: ['US-TX-3', 'EU-SE-1'] }),
  gpu('NVIDIA RTX 5090', 0.94, { vramGb: 32, dataCenters: ['US-CA-2'] }),
  gpu('NVIDIA RTX A5000', 0.29, { vramGb: 24 }),
  gpu('NVIDIA RTX 4000 Ada Generation', 0.26, { vramGb: 20 }),
  gpu('AMD Instinct MI300X OAM', 2.49, { vramGb: 192 }),
  gpu('NVIDIA RTX PRO 6000 Blackwell Server Edition', 1.79, { vramGb: 96 }),
  gpu('NVIDIA RTX PRO 4500 Blackwell', 0.64, { vramGb: 32, availability: 'NONE' }),
  gpu('NVIDIA L40S', null, { vramGb: 48 }),
];

export const INCIDENT_EXCLUSIONS: Array<[string, string]> = [
  ['NVIDIA GeForce RTX 4090', 'NotInDataCenter'],
  ['NVIDIA RTX 5090', 'NotInDataCenter'],
  ['NVIDIA RTX A5000', 'BelowMinVram'],
  ['NVIDIA RTX 4000 Ada Generation', 'BelowMinVram'],
  ['AMD Instinct MI300X OAM', 'PriceAboveMaximum'],
  ['NVIDIA RTX PRO 6000 Blackwell Server Edition', 'PriceAboveMaximum'],
  ['NVIDIA RTX PRO 4500 Blackwell', 'NoCapacity'],
  ['NVIDIA L40S', 'NoSecurePrice'],
];
