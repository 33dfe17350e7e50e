import {
  asArray,
  asNumber,
  asRecord,
  asString,
  JsonShapeError,
  onlyKeys,
  optional,
  readShape,
} from './json-reader';
import { CatalogGpu, SimTemplate, SimVolume } from './scenario';

/**
 * Whether POST /pods may place a pod, decided like the real API: the body
 * shape, then the template, the GPU, the datacenter, the volume, capacity and
 * finally the balance. Only the fields podwarden documents are accepted (real
 * RunPod accepts more), so a client that sends a misread field hears about it.
 */
export interface CreatePlan {
  readonly name: string;
  readonly template: SimTemplate;
  readonly gpu: CatalogGpu;
  readonly gpuCount: number;
  readonly dataCenterId: string;
  readonly volume: SimVolume | null;
  readonly mountPath: string;
  readonly costPerHr: number;
}

export type CreateDecision =
  | { readonly ok: true; readonly plan: CreatePlan }
  | { readonly ok: false; readonly status: 400 | 402; readonly detail: string };

export interface CreateWorld {
  readonly catalog: readonly CatalogGpu[];
  readonly templates: readonly SimTemplate[];
  readonly volumes: readonly SimVolume[];
  readonly balance: number;
  readonly insufficientBalanceHours: number;
}

interface CreateBody {
  readonly name: string;
  readonly templateId: string;
  readonly dataCenterIds: readonly string[];
  readonly gpuId: string;
  readonly gpuCount: number;
  readonly mount: { readonly volumeId: string; readonly path: string } | null;
}

const CREATE_FIELDS = ['name', 'templateId', 'cloud', 'dataCenterIds', 'gpu', 'mounts'] as const;

export function decideCreate(body: unknown, world: CreateWorld): CreateDecision {
  const read = readShape(() => readCreateBody(body));
  if (!read.ok) return refuse(400, read.error);
  const request = read.value;

  const template = world.templates.find((t) => t.id === request.templateId);
  if (template === undefined) return refuse(400, `template ${request.templateId} not found`);
  const gpu = world.catalog.find((g) => g.id === request.gpuId);
  if (gpu === undefined) return refuse(400, `unknown GPU type ${request.gpuId}`);
  if (gpu.price.secure === null) return refuse(400, `GPU type ${gpu.id} is not offered in the SECURE cloud`);

  const known = knownDataCenters(world);
  const unknownDc = request.dataCenterIds.find((dc) => !known.has(dc));
  if (unknownDc !== undefined) return refuse(400, `unknown data center ${unknownDc}`);

  let volume: SimVolume | null = null;
  let dataCenterId: string;
  if (request.mount !== null) {
    const volumeId = request.mount.volumeId;
    const found = world.volumes.find((v) => v.id === volumeId);
    if (found === undefined) return refuse(400, `network volume ${volumeId} not found`);
    if (!request.dataCenterIds.includes(found.dataCenterId)) {
      return refuse(
        400,
        `network volume ${found.id} is in ${found.dataCenterId}, which is not in dataCenterIds [${request.dataCenterIds.join(', ')}]`,
      );
    }
    volume = found;
    dataCenterId = found.dataCenterId;
    if (!hasCapacity(gpu, dataCenterId)) {
      return refuse(400, `no capacity for GPU type ${gpu.id} in ${dataCenterId}; it cannot be placed there`);
    }
  } else {
    const withCapacity = request.dataCenterIds.find((dc) => hasCapacity(gpu, dc));
    if (withCapacity === undefined) {
      return refuse(400, `no capacity for GPU type ${gpu.id} in [${request.dataCenterIds.join(', ')}]`);
    }
    dataCenterId = withCapacity;
  }

  const costPerHr = roundPrice(gpu.price.secure * request.gpuCount);
  const needed = costPerHr * world.insufficientBalanceHours;
  if (world.balance < needed) {
    return refuse(
      402,
      `insufficient balance: ${world.balance.toFixed(2)} USD, at least ${needed.toFixed(2)} USD required to deploy`,
    );
  }
  return {
    ok: true,
    plan: {
      name: request.name,
      template,
      gpu,
      gpuCount: request.gpuCount,
      dataCenterId,
      volume,
      mountPath: request.mount?.path ?? '/workspace',
      costPerHr,
    },
  };
}

function readCreateBody(body: unknown): CreateBody {
  const record = asRecord(body, 'body');
  onlyKeys(record, CREATE_FIELDS, 'body');
  if (record.cloud !== 'SECURE') {
    throw new JsonShapeError(
      'body.cloud',
      'must be "SECURE" (this account deploys to the secure cloud only)',
    );
  }
  const dataCenterIds = asArray(record.dataCenterIds, 'body.dataCenterIds').map((dc, i) =>
    asString(dc, `body.dataCenterIds[${i}]`),
  );
  if (dataCenterIds.length === 0) throw new JsonShapeError('body.dataCenterIds', 'expected at least one id');
  const gpu = asRecord(record.gpu, 'body.gpu');
  onlyKeys(gpu, ['id', 'count'], 'body.gpu');
  const mounts = optional(record.mounts, null, (v) => asRecord(v, 'body.mounts'));
  return {
    name: optional(record.name, 'pod', (v) => asString(v, 'body.name')),
    templateId: asString(record.templateId, 'body.templateId'),
    dataCenterIds,
    gpuId: asString(gpu.id, 'body.gpu.id'),
    gpuCount: optional(gpu.count, 1, (v) => asNumber(v, 'body.gpu.count', { integer: true, min: 1, max: 8 })),
    mount: mounts === null ? null : readMount(mounts),
  };
}

function readMount(mounts: Record<string, unknown>): CreateBody['mount'] {
  onlyKeys(mounts, ['network'], 'body.mounts');
  const network = optional(mounts.network, [], (v) => asArray(v, 'body.mounts.network'));
  if (network.length === 0) return null;
  if (network.length > 1)
    throw new JsonShapeError('body.mounts.network', 'at most one network volume per pod');
  const mount = asRecord(network[0], 'body.mounts.network[0]');
  onlyKeys(mount, ['volumeId', 'path'], 'body.mounts.network[0]');
  const path = asString(mount.path, 'body.mounts.network[0].path');
  if (!path.startsWith('/'))
    throw new JsonShapeError('body.mounts.network[0].path', 'expected an absolute path');
  return { volumeId: asString(mount.volumeId, 'body.mounts.network[0].volumeId'), path };
}

function knownDataCenters(world: CreateWorld): Set<string> {
  const known = new Set<string>();
  for (const gpu of world.catalog) for (const dc of gpu.dataCenters) known.add(dc.id);
  for (const volume of world.volumes) known.add(volume.dataCenterId);
  return known;
}

function hasCapacity(gpu: CatalogGpu, dataCenterId: string): boolean {
  const entry = gpu.dataCenters.find((dc) => dc.id === dataCenterId);
  return entry !== undefined && entry.availability !== 'NONE';
}

function roundPrice(value: number): number {
  return Math.round(value * 1_000_000) / 1_000_000;
}

function refuse(status: 400 | 402, detail: string): CreateDecision {
  return { ok: false, status, detail };
}
