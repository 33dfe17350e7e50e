export type Availability = 'NONE' | 'LOW' | 'MEDIUM' | 'HIGH';

export const AVAILABILITY_RANK: Readonly<Record<Availability, number>> = {
  NONE: 0,
  LOW: 1,
  MEDIUM: 2,
  HIGH: 3,
};

export interface DataCenterAvailability {
  readonly id: string;
  readonly availability: Availability;
}

/** One GPU of GET /catalog/gpus?include=AVAILABILITY&product=POD. Unknown values are null, never 0. */
export interface GpuCatalogEntry {
  readonly id: string;
  /** Secure-cloud USD/h; null when the catalog carries none (such a GPU is never eligible). */
  readonly securePrice: number | null;
  readonly availability: Availability;
  readonly dataCenters: readonly DataCenterAvailability[];
  /** null when the catalog carries no memory figure. */
  readonly vramGb: number | null;
}
