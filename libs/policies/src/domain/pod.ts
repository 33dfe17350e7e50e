/**
 * RunPod's pod lifecycle as our decisions see it. RUNNING without a live runtime (uptime 0) is `Starting`:
 * the GPU may still be attaching, and reading it as "running with no GPU" would create a second, billed
 * pod. Anything we cannot name is `Unknown`.
 */
export type PodStatus =
  'Provisioning' | 'Starting' | 'Running' | 'Exited' | 'Error' | 'Terminated' | 'Unknown';

export const POD_STATUSES: readonly PodStatus[] = [
  'Provisioning',
  'Starting',
  'Running',
  'Exited',
  'Error',
  'Terminated',
  'Unknown',
];

/**
 * What RunPod actually placed, as one read of the pod reports it: the network
 * volumes mounted, the datacenter, the GPU type and the hourly price. A field
 * the answer did not carry is empty or null, never a guess.
 */
export interface RealisedContract {
  readonly volumeIds: readonly string[];
  readonly dataCenterId: string | null;
  readonly gpuId: string | null;
  readonly costPerHr: number | null;
}

/** What one read of a pod (GET /pods/{id}) established. Tri-state: a failed read is never "absent". */
export type PodObservation =
  | {
      readonly kind: 'found';
      readonly podId: string;
      readonly status: PodStatus;
      readonly gpuCount: number;
      /** What was placed; absent only where a reader does not model it (the contract check then fails closed). */
      readonly realised?: RealisedContract;
    }
  | { readonly kind: 'not-found'; readonly podId: string }
  | { readonly kind: 'unreadable'; readonly podId: string; readonly reason: string };

/** One pod as listed by GET /pods, reduced to what we use. */
export interface ListedPod {
  readonly id: string;
  readonly name: string | null;
  /** Raw upper-case status as listed (for logs and the simulator); decisions observe the pod instead. */
  readonly status: string | null;
  readonly volumeIds: readonly string[];
  readonly costPerHr: number | null;
  readonly gpuId: string | null;
  /** ISO timestamp when RunPod reports one (used by the orphan reaper); null when absent. */
  readonly createdAt: string | null;
}

/** GET /pods as read: the pods, or why the list could not be read (never an empty list in disguise). */
export type PodList =
  | { readonly kind: 'listed'; readonly pods: readonly ListedPod[] }
  | { readonly kind: 'unreadable'; readonly reason: string };

/**
 * Which pods sit on a network volume (GET /pods filtered client-side on
 * mounts.network[].volumeId). Only `not-found` is an affirmative "no pod":
 * it is the gate before any create.
 */
export type VolumeLookup =
  | { readonly kind: 'found'; readonly podIds: readonly string[] }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'unreadable'; readonly reason: string };

/** Friendly name for the GET route's `lookup` field. */
export type LookupWord = 'FOUND' | 'NOT_FOUND' | 'UNREADABLE' | 'UNCONFIGURED';
