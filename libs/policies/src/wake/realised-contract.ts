import type { RealisedContract } from '../domain/pod';

/** What the wake asked RunPod to place: our volume, our datacenter, the GPU the walk chose, under the cap. */
export interface RequestedContract {
  readonly volumeId: string;
  readonly dataCenterId: string;
  readonly gpuId: string;
  readonly maxPricePerHour: number;
}

export type ContractField = 'volume' | 'datacenter' | 'gpu' | 'price';

/** One field RunPod did not honour, with both values as they read in a message. */
export interface ContractMismatch {
  readonly field: ContractField;
  readonly expected: string;
  readonly actual: string;
}

export type ContractCheck =
  { readonly ok: true } | { readonly ok: false; readonly mismatches: readonly ContractMismatch[] };

const NOT_REPORTED = 'not reported';

/**
 * Whether a pod the wake created is the one it asked for. RunPod has accepted a volume and placed the pod
 * without it, invisible to all that watch the volume and billing forever, so a missing field is a mismatch,
 * never "probably fine". The price is judged against the cap (RunPod may round), and only when reported.
 */
export function checkRealisedContract(
  requested: RequestedContract,
  realised: RealisedContract | undefined,
): ContractCheck {
  if (realised === undefined) {
    return {
      ok: false,
      mismatches: [{ field: 'volume', expected: requested.volumeId, actual: NOT_REPORTED }],
    };
  }
  const mismatches: ContractMismatch[] = [];
  if (!realised.volumeIds.includes(requested.volumeId)) {
    const actual = realised.volumeIds.length === 0 ? 'none' : realised.volumeIds.join(', ');
    mismatches.push({ field: 'volume', expected: requested.volumeId, actual });
  }
  if (realised.dataCenterId !== requested.dataCenterId) {
    mismatches.push({
      field: 'datacenter',
      expected: requested.dataCenterId,
      actual: realised.dataCenterId ?? NOT_REPORTED,
    });
  }
  if (realised.gpuId?.toLowerCase() !== requested.gpuId.toLowerCase()) {
    mismatches.push({ field: 'gpu', expected: requested.gpuId, actual: realised.gpuId ?? NOT_REPORTED });
  }
  if (realised.costPerHr !== null && realised.costPerHr > requested.maxPricePerHour) {
    mismatches.push({
      field: 'price',
      expected: `at most ${requested.maxPricePerHour} USD/h`,
      actual: `${realised.costPerHr} USD/h`,
    });
  }
  return mismatches.length === 0 ? { ok: true } : { ok: false, mismatches };
}

/** "volume: expected vol-a, got none; gpu: expected A, got B" — the wake's Failed detail. */
export function describeMismatches(mismatches: readonly ContractMismatch[]): string {
  return mismatches.map((m) => `${m.field}: expected ${m.expected}, got ${m.actual}`).join('; ');
}
