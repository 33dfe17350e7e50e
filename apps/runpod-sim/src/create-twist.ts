import type { CreatePlan } from './create-request';
import type { FaultSpec } from './fault-injector';
import type { CatalogGpu } from './scenario';

/**
 * What a create fault changes about the pod that gets placed: RunPod has been
 * seen to accept a volume flag and place a pod without the volume, and a
 * client must also survive a pod placed on a GPU it did not ask for.
 */
export function twistPlan(
  plan: CreatePlan,
  fault: FaultSpec | null,
  catalog: readonly CatalogGpu[],
): CreatePlan {
  if (fault?.kind === 'no-volume') return { ...plan, volume: null };
  if (fault?.kind !== 'other-gpu') return plan;
  const other = catalog.find((gpu) =>
    fault.gpuId === null ? gpu.id !== plan.gpu.id && gpu.price.secure !== null : gpu.id === fault.gpuId,
  );
  if (other === undefined) return plan;
  const costPerHr = Math.round((other.price.secure ?? 0) * plan.gpuCount * 1_000_000) / 1_000_000;
  return { ...plan, gpu: other, costPerHr };
}
