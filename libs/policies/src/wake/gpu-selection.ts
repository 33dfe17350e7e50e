import { AVAILABILITY_RANK, type Availability, type GpuCatalogEntry } from '../domain/gpu';

export interface GpuSelectionCriteria {
  /** The network volume's datacenter: a pod can only be created there. */
  dataCenterId: string;
  /** Capability floor, enforced only when the catalog knows the VRAM and no allowlist is set. */
  minVramGb: number;
  /** Secure-cloud USD/h, inclusive. */
  maxPricePerHour: number;
  /** GPU ids, case-insensitive; when non-empty it alone decides capability. */
  allowlist: readonly string[];
}

/** Why a catalog GPU is not a candidate; named in the failed wake's detail. */
export type GpuExclusionReason =
  | 'NotInDataCenter'
  | 'NoCapacity'
  | 'NotAllowlisted'
  | 'BelowMinVram'
  | 'NoSecurePrice'
  | 'PriceAboveMaximum';

export interface GpuCandidate {
  gpuId: string;
  pricePerHour: number;
  /** Availability in our datacenter (not the GPU's global figure). */
  dataCenterAvailability: Availability;
  vramGb: number | null;
}

export interface GpuExclusion {
  gpuId: string;
  reason: GpuExclusionReason;
}

export interface GpuSelection {
  /** Ranked: cheapest first, then more capacity in our datacenter, then id. */
  candidates: GpuCandidate[];
  /** Every other catalog GPU, in catalog order, each with the first check it failed. */
  excluded: GpuExclusion[];
}

/** One GPU's verdict against the criteria. */
export type GpuJudgement =
  { kind: 'eligible'; candidate: GpuCandidate } | { kind: 'excluded'; reason: GpuExclusionReason };

/**
 * Ranks the catalog for a create. POST /pods places exactly one GPU id and never
 * falls back, so the walk needs every acceptable GPU, cheapest first; and every
 * rejected GPU carries its reason, because a wake that finds nothing must say why.
 */
export function selectGpus(
  catalog: readonly GpuCatalogEntry[],
  criteria: GpuSelectionCriteria,
): GpuSelection {
  const candidates: GpuCandidate[] = [];
  const excluded: GpuExclusion[] = [];
  for (const gpu of catalog) {
    const judgement = judgeGpu(gpu, criteria);
    if (judgement.kind === 'eligible') {
      candidates.push(judgement.candidate);
    } else {
      excluded.push({ gpuId: gpu.id, reason: judgement.reason });
    }
  }
  return { candidates: candidates.sort(compareGpuCandidates), excluded };
}

/**
 * Judges one GPU. An excluded GPU carries the first check it failed, in the
 * order datacenter, capacity, allowlist or VRAM, known price, price cap.
 */
export function judgeGpu(gpu: GpuCatalogEntry, criteria: GpuSelectionCriteria): GpuJudgement {
  const allowlist = criteria.allowlist.map(normalizeId).filter((id) => id !== '');
  const ourDataCenter = normalizeId(criteria.dataCenterId);
  // A blank datacenter matches nothing: we would not know where the volume is.
  const dataCenter =
    ourDataCenter === '' ? undefined : gpu.dataCenters.find((dc) => normalizeId(dc.id) === ourDataCenter);
  if (dataCenter === undefined) {
    return { kind: 'excluded', reason: 'NotInDataCenter' };
  }
  // Capacity elsewhere is no use; an unrecognised availability counts as none.
  if (!(AVAILABILITY_RANK[dataCenter.availability] >= 1)) {
    return { kind: 'excluded', reason: 'NoCapacity' };
  }
  if (allowlist.length > 0) {
    if (!allowlist.includes(normalizeId(gpu.id))) {
      return { kind: 'excluded', reason: 'NotAllowlisted' };
    }
  } else if (gpu.vramGb !== null && !(gpu.vramGb >= criteria.minVramGb)) {
    // Unknown VRAM passes: the catalog may carry none, and then price alone ranks.
    return { kind: 'excluded', reason: 'BelowMinVram' };
  }
  const price = gpu.securePrice;
  if (price === null || !Number.isFinite(price) || price < 0) {
    return { kind: 'excluded', reason: 'NoSecurePrice' };
  }
  // Written so that a NaN cap admits nothing.
  if (!(price <= criteria.maxPricePerHour)) {
    return { kind: 'excluded', reason: 'PriceAboveMaximum' };
  }
  return {
    kind: 'eligible',
    candidate: {
      gpuId: gpu.id,
      pricePerHour: price,
      dataCenterAvailability: dataCenter.availability,
      vramGb: gpu.vramGb,
    },
  };
}

/** Ranking order: cheapest first, then more capacity in our datacenter, then id. */
export function compareGpuCandidates(a: GpuCandidate, b: GpuCandidate): number {
  if (a.pricePerHour !== b.pricePerHour) {
    return a.pricePerHour - b.pricePerHour;
  }
  const byAvailability =
    AVAILABILITY_RANK[b.dataCenterAvailability] - AVAILABILITY_RANK[a.dataCenterAvailability];
  if (byAvailability !== 0) {
    return byAvailability;
  }
  // Plain code-unit order, so the ranking does not depend on the host's locale.
  return a.gpuId < b.gpuId ? -1 : a.gpuId > b.gpuId ? 1 : 0;
}

// Simple lower-case folding: look-alike letters (a dotless ı) stay distinct from ASCII.
function normalizeId(id: string): string {
  return id.trim().toLowerCase();
}

/**
 * "AMD Instinct MI300X OAM: PriceAboveMaximum; NVIDIA RTX 4090: NotInDataCenter",
 * every excluded GPU in the given order; empty when nothing was excluded.
 */
export function describeExclusions(excluded: readonly GpuExclusion[]): string {
  return excluded.map((exclusion) => `${exclusion.gpuId}: ${exclusion.reason}`).join('; ');
}
