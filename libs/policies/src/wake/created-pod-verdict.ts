import type { PodObservation } from '../domain/pod';
import { checkRealisedContract, type ContractMismatch, type RequestedContract } from './realised-contract';
import { decidePod } from './wake-decision';

/**
 * What the wake does with one read of its placed pod: `running`; `wait` (not listed, unreadable, coming
 * up); `mismatch` (not the pod asked for), tear it down, never adopt it; `failed` (it will not serve), tear
 * it down, the creator owns it; `gone`, already TERMINATED, nothing left to bill.
 */
export type CreatedPodVerdict =
  | { readonly kind: 'running' }
  | { readonly kind: 'wait' }
  | { readonly kind: 'mismatch'; readonly mismatches: readonly ContractMismatch[] }
  | { readonly kind: 'failed'; readonly reached: string }
  | { readonly kind: 'gone' };

/**
 * The realised contract is judged on every read that found the pod, so at
 * its first observation and again when it first runs: a mismatch is never
 * "slow startup".
 */
export function judgeCreatedPod(
  observation: PodObservation,
  requested: RequestedContract,
): CreatedPodVerdict {
  if (observation.kind !== 'found') return { kind: 'wait' };
  const contract = checkRealisedContract(requested, observation.realised);
  if (!contract.ok && observation.status !== 'Terminated') {
    return { kind: 'mismatch', mismatches: contract.mismatches };
  }
  const verdict = decidePod(observation, false);
  if (verdict === 'Done') return { kind: 'running' };
  if (verdict === 'WaitAndRepoll') return { kind: 'wait' };
  if (observation.status === 'Terminated') return { kind: 'gone' };
  return { kind: 'failed', reached: `${observation.status} with ${observation.gpuCount} GPU(s)` };
}
