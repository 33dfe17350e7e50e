import { JsonRecord } from './json-reader';
import { PodView, RuntimeView, SimPod } from './pod-lifecycle';
import { Availability, AVAILABILITIES, CatalogGpu, WireVariants } from './scenario';

/**
 * The JSON RunPod REST v2 answers, rendered from simulator state. Field names
 * follow the documented wire shapes; the variants (memoryInGb, uptimeInSeconds,
 * `{ pods: [...] }`) are switched by the scenario's `wire` block.
 */
export function podToWire(pod: SimPod, view: PodView, wire: WireVariants): JsonRecord {
  return {
    id: pod.id,
    name: pod.name,
    status: view.status,
    createdAt: isoSeconds(pod.createdAtWall),
    costPerHr: pod.costPerHr,
    gpu: { id: pod.gpuId, count: pod.gpuCount },
    runtime: runtimeToWire(pod, view.runtime, wire),
    mounts: { network: pod.volumeId === null ? [] : [{ volumeId: pod.volumeId, path: pod.mountPath }] },
    dataCenterId: pod.dataCenterId,
    templateId: pod.templateId,
  };
}

function runtimeToWire(pod: SimPod, runtime: RuntimeView, wire: WireVariants): JsonRecord | null {
  switch (runtime.kind) {
    case 'none':
      return null;
    case 'attaching':
      if (runtime.shape === 'null') return null;
      if (runtime.shape === 'empty') return {};
      return { [wire.uptimeKey]: 0, gpus: [], ports: [] };
    case 'live':
      return {
        [wire.uptimeKey]: runtime.uptimeSeconds,
        gpus: Array.from({ length: pod.gpuCount }, (_, i) => ({ id: `gpu-${i}` })),
        ports: [
          { ip: '100.65.0.2', isIpPublic: false, privatePort: pod.port, publicPort: pod.port, type: 'http' },
        ],
      };
  }
}

/** GET /catalog/gpus; without include=AVAILABILITY the availability fields are absent, as on the real API. */
export function catalogToWire(
  catalog: readonly CatalogGpu[],
  wire: WireVariants,
  includeAvailability: boolean,
): JsonRecord {
  return {
    gpus: catalog.map((gpu) => {
      const entry: JsonRecord = {
        id: gpu.id,
        displayName: gpu.displayName,
        [wire.memoryKey]: gpu.memory,
        price: { secure: gpu.price.secure, community: gpu.price.community },
      };
      if (includeAvailability) {
        entry.availability = gpu.availability ?? bestAvailability(gpu);
        entry.dataCenters = gpu.dataCenters.map((dc) => ({ id: dc.id, availability: dc.availability }));
      }
      return entry;
    }),
  };
}

function bestAvailability(gpu: CatalogGpu): Availability {
  let best = 0;
  for (const dc of gpu.dataCenters) best = Math.max(best, AVAILABILITIES.indexOf(dc.availability));
  return AVAILABILITIES[best];
}

/** RunPod writes whole-second UTC timestamps: 2026-11-30T10:15:00Z. */
export function isoSeconds(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
