import type { Availability, DataCenterAvailability, GpuCatalogEntry } from '@podwarden/policies';
import type { ExchangeOutcome } from './http-exchange';
import {
  arrayField,
  bareOrWrappedArray,
  finiteNumberField,
  identifiedRecord,
  isRecord,
  nonBlankStringField,
  parseJson,
  recordField,
} from './json-reading';

const AVAILABILITIES: readonly Availability[] = ['NONE', 'LOW', 'MEDIUM', 'HIGH'];

/** Shapes GET /catalog/gpus. Empty on any failure: no candidates means nothing is billed. */
export function catalogFromOutcome(outcome: ExchangeOutcome): GpuCatalogEntry[] {
  if (outcome.kind === 'failed' || outcome.status < 200 || outcome.status >= 300) {
    return [];
  }
  const parsed = parseJson(outcome.body);
  if (!parsed.ok) {
    return [];
  }
  const gpus = bareOrWrappedArray(parsed.value, 'gpus');
  if (gpus === null) {
    return [];
  }
  const entries: GpuCatalogEntry[] = [];
  for (const gpu of gpus) {
    const entry = catalogEntryOf(gpu);
    if (entry !== null) {
      entries.push(entry);
    }
  }
  return entries;
}

export function catalogEntryOf(entry: unknown): GpuCatalogEntry | null {
  const identified = identifiedRecord(entry);
  if (identified === null) {
    return null;
  }
  const { record: gpu, id } = identified;
  const price = recordField(gpu, 'price');
  return {
    id,
    securePrice: price === null ? null : finiteNumberField(price, 'secure'),
    availability: availabilityOf(gpu.availability),
    dataCenters: dataCentersOf(gpu),
    vramGb: finiteNumberField(gpu, 'memory') ?? finiteNumberField(gpu, 'memoryInGb'),
  };
}

/** Absent or unrecognised availability reads as NONE, which no selection accepts. */
export function availabilityOf(value: unknown): Availability {
  return typeof value === 'string' && (AVAILABILITIES as readonly string[]).includes(value)
    ? (value as Availability)
    : 'NONE';
}

function dataCentersOf(gpu: Record<string, unknown>): DataCenterAvailability[] {
  const listed = arrayField(gpu, 'dataCenters') ?? [];
  const dataCenters: DataCenterAvailability[] = [];
  for (const dataCenter of listed) {
    const id = isRecord(dataCenter) ? nonBlankStringField(dataCenter, 'id') : null;
    if (isRecord(dataCenter) && id !== null) {
      dataCenters.push({ id, availability: availabilityOf(dataCenter.availability) });
    }
  }
  return dataCenters;
}
