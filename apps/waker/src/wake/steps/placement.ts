import type { GpuCandidate } from '@podwarden/policies';
import type { WakeResult } from '../wake-result';

/** Where the create walk left the wake: a pod placed on the volume (created or adopted), or an ending. */
export type Placement =
  | { readonly kind: 'placed'; readonly podId: string; readonly candidate: GpuCandidate }
  | { readonly kind: 'ended'; readonly result: WakeResult };
