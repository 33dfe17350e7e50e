import { z } from 'zod';
import type { Availability, DataCenterAvailability, GpuCatalogEntry } from '@podwarden/policies';
import type { ExchangeOutcome } from './http-exchange';
import { bareOrWrappedArray, finiteNumber, nonBlankId, notNull, parseJson, readOrNull } from './json-reading';

/** Absent or unrecognised availability reads as NONE, which no selection accepts. */
const availability = z.enum(['NONE', 'LOW', 'MEDIUM', 'HIGH']).catch('NONE');

/** A data center without an id is dropped: it cannot be asked for. */
const dataCenter = z
  .object({ id: nonBlankId, availability })
  .transform((entry): DataCenterAvailability | null => entry)
  .catch(null);

const catalogEntry = z
  .object({
    id: nonBlankId,
    price: z
      .object({ secure: finiteNumber })
      .transform((price) => price.secure)
      .catch(null),
    availability,
    dataCenters: z
      .array(dataCenter)
      .transform((entries) => entries.filter(notNull))
      .catch(() => []),
    memory: finiteNumber,
    memoryInGb: finiteNumber,
  })
  .transform((gpu): GpuCatalogEntry => ({
    id: gpu.id,
    securePrice: gpu.price,
    availability: gpu.availability,
    dataCenters: gpu.dataCenters,
    vramGb: gpu.memory ?? gpu.memoryInGb,
  }));

const catalogEntries = bareOrWrappedArray('gpus');

/** Shapes GET /catalog/gpus. Empty on any failure: no candidates means nothing is billed. */
export function catalogFromOutcome(outcome: ExchangeOutcome): GpuCatalogEntry[] {
  if (outcome.kind === 'failed' || outcome.status < 200 || outcome.status >= 300) {
    return [];
  }
  const parsed = parseJson(outcome.body);
  const gpus = parsed.ok ? readOrNull(catalogEntries, parsed.value) : null;
  return (gpus ?? []).map(catalogEntryOf).filter(notNull);
}

export function catalogEntryOf(entry: unknown): GpuCatalogEntry | null {
  return readOrNull(catalogEntry, entry);
}

export function availabilityOf(value: unknown): Availability {
  return availability.parse(value);
}
