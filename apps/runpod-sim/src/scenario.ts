import {
  asArray,
  asBoolean,
  asNullableNumber,
  asNumber,
  asOneOf,
  asRecord,
  asString,
  JsonRecord,
  JsonShapeError,
  onlyKeys,
  optional,
  readShape,
  ShapeResult,
} from './json-reader';

/**
 * The simulated world: catalog, volumes, templates, seeded pods, timings and
 * the knobs that make the simulator behave like one particular RunPod day.
 * A scenario file, the reset body and PUT /_sim/config all use this shape.
 */
export const AVAILABILITIES = ['NONE', 'LOW', 'MEDIUM', 'HIGH'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

export const POD_STATUS_WORDS = [
  'PROVISIONING',
  'STARTING',
  'RUNNING',
  'EXITED',
  'ERROR',
  'TERMINATED',
] as const;
export type PodStatusWord = (typeof POD_STATUS_WORDS)[number];

export const LIST_ORDERS = ['created', 'reverse', 'stale-first', 'shuffled'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

export const VLLM_BEHAVIOURS = [
  'normal',
  'never-ready',
  'dead',
  'phantom-busy',
  'flapping',
  'no-counters',
] as const;
export type VllmBehaviour = (typeof VLLM_BEHAVIOURS)[number];

/** What a RUNNING pod's `runtime` looks like while its GPU is still attaching. */
export const ATTACH_RUNTIMES = ['null', 'empty', 'zero-uptime'] as const;
export type AttachRuntime = (typeof ATTACH_RUNTIMES)[number];

export interface CatalogDataCenter {
  readonly id: string;
  readonly availability: Availability;
}

export interface CatalogGpu {
  readonly id: string;
  readonly displayName: string;
  /** VRAM in GB; null when the catalog carries none. */
  readonly memory: number | null;
  readonly price: { readonly secure: number | null; readonly community: number | null };
  /** Overall availability; null derives it as the best of the datacenters. */
  readonly availability: Availability | null;
  readonly dataCenters: readonly CatalogDataCenter[];
}

export interface SimVolume {
  readonly id: string;
  readonly name: string;
  readonly dataCenterId: string;
  readonly sizeGb: number;
}

export interface SimTemplate {
  readonly id: string;
  readonly name: string;
  readonly imageName: string;
  /** The model_name label vLLM puts on its metrics. */
  readonly modelName: string;
  readonly port: number;
}

/** Simulated milliseconds; the speed factor divides them in real time. */
export interface Timings {
  readonly provisioningMs: number;
  readonly startingMs: number;
  readonly gpuAttachMs: number;
  readonly modelLoadMs: number;
  readonly chatMs: number;
  readonly terminateMs: number;
  /** How long a charge takes to appear in the billing history (RunPod's billing lags). */
  readonly billingLagMs: number;
}

/** Shapes the real API is known to vary in, so a client's tolerance can be exercised. */
export interface WireVariants {
  readonly memoryKey: 'memory' | 'memoryInGb';
  readonly uptimeKey: 'uptime' | 'uptimeInSeconds';
  readonly listShape: 'array' | 'object';
  readonly attachRuntime: AttachRuntime;
  /** Cloudflare refuses non-browser User-Agents on the pod proxy; off by default. */
  readonly proxyBrowserUaOnly: boolean;
}

export interface VllmSettings {
  readonly maxConcurrency: number;
  /** Generation tokens per completion unless max_tokens asks for fewer. */
  readonly completionTokens: number;
  /** Newer vLLM also exposes `_created` samples for its counters. */
  readonly createdSamples: boolean;
}

export interface PodSeed {
  readonly id: string | null;
  readonly name: string | null;
  readonly status: PodStatusWord;
  readonly gpuId: string | null;
  readonly gpuCount: number;
  /** undefined: the scenario's first volume; null: no network volume. */
  readonly volumeId: string | null | undefined;
  readonly templateId: string | null;
  readonly dataCenterId: string | null;
  readonly createdAt: string | null;
  readonly port: number | null;
  readonly costPerHr: number | null;
  readonly clusterId: string | null;
  /** RUNNING seeds serve at once unless false (then the model loads first). */
  readonly vllmReady: boolean;
  readonly behaviour: VllmBehaviour;
}

export interface Scenario {
  readonly speed: number;
  readonly listOrder: ListOrder;
  readonly seed: number;
  readonly balance: number;
  /** Create answers 402 when balance < price per hour × this many hours. */
  readonly insufficientBalanceHours: number;
  readonly timings: Timings;
  readonly wire: WireVariants;
  readonly vllm: VllmSettings;
  readonly catalog: readonly CatalogGpu[];
  readonly volumes: readonly SimVolume[];
  readonly templates: readonly SimTemplate[];
  readonly pods: readonly PodSeed[];
}

/** Loose input shapes (programmatic options, admin bodies): omitted fields take defaults when read. */
export type CatalogGpuInput = Partial<Omit<CatalogGpu, 'id' | 'price' | 'dataCenters'>> & {
  readonly id: string;
  readonly memoryInGb?: number | null;
  readonly price?: { readonly secure?: number | null; readonly community?: number | null };
  readonly dataCenters?: readonly CatalogDataCenter[];
};
export type SimVolumeInput = Partial<SimVolume> & { readonly id: string; readonly dataCenterId: string };
export type SimTemplateInput = Partial<SimTemplate> & { readonly id: string };
export type PodSeedInput = Partial<Omit<PodSeed, 'status'>> & { readonly status: PodStatusWord };

export const SCENARIO_FIELDS = [
  'speed',
  'listOrder',
  'seed',
  'balance',
  'insufficientBalanceHours',
  'timings',
  'wire',
  'vllm',
  'catalog',
  'volumes',
  'templates',
  'pods',
] as const;

const TIMING_KEYS = [
  'provisioningMs',
  'startingMs',
  'gpuAttachMs',
  'modelLoadMs',
  'chatMs',
  'terminateMs',
  'billingLagMs',
] as const;

/**
 * Reads a partial scenario over `base`: present fields replace, nested
 * timings / wire / vllm merge field by field, arrays replace whole.
 * `allowPods: false` is the PUT /_sim/config flavour (pods are seeded elsewhere).
 */
export function parseScenarioPatch(
  raw: unknown,
  base: Scenario,
  where: string,
  allowPods = true,
): ShapeResult<Scenario> {
  return readShape(() => {
    const patch = asRecord(raw, where);
    const allowed = allowPods ? SCENARIO_FIELDS : SCENARIO_FIELDS.filter((key) => key !== 'pods');
    onlyKeys(patch, allowed, where);
    const scenario: Scenario = {
      speed: optional(patch.speed, base.speed, (v) => readSpeed(v, `${where}.speed`)),
      listOrder: optional(patch.listOrder, base.listOrder, (v) =>
        asOneOf(v, `${where}.listOrder`, LIST_ORDERS),
      ),
      seed: optional(patch.seed, base.seed, (v) => asNumber(v, `${where}.seed`, { integer: true })),
      balance: optional(patch.balance, base.balance, (v) => asNumber(v, `${where}.balance`)),
      insufficientBalanceHours: optional(patch.insufficientBalanceHours, base.insufficientBalanceHours, (v) =>
        asNumber(v, `${where}.insufficientBalanceHours`, { min: 0 }),
      ),
      timings: optional(patch.timings, base.timings, (v) => readTimings(v, base.timings, `${where}.timings`)),
      wire: optional(patch.wire, base.wire, (v) => readWire(v, base.wire, `${where}.wire`)),
      vllm: optional(patch.vllm, base.vllm, (v) => readVllm(v, base.vllm, `${where}.vllm`)),
      catalog: optional(patch.catalog, base.catalog, (v) => readList(v, `${where}.catalog`, readCatalogGpu)),
      volumes: optional(patch.volumes, base.volumes, (v) => readList(v, `${where}.volumes`, readVolume)),
      templates: optional(patch.templates, base.templates, (v) =>
        readList(v, `${where}.templates`, readTemplate),
      ),
      pods: optional(patch.pods, base.pods, (v) => readList(v, `${where}.pods`, readPodSeed)),
    };
    requireUniqueIds(scenario.catalog, `${where}.catalog`);
    requireUniqueIds(scenario.volumes, `${where}.volumes`);
    requireUniqueIds(scenario.templates, `${where}.templates`);
    return scenario;
  });
}

export function readSpeed(value: unknown, path: string): number {
  return asNumber(value, path, { min: 0.001, max: 1_000_000 });
}

export function readTimings(value: unknown, base: Timings, path: string): Timings {
  const record = asRecord(value, path);
  onlyKeys(record, TIMING_KEYS, path);
  const read = (key: (typeof TIMING_KEYS)[number]): number =>
    optional(record[key], base[key], (v) => asNumber(v, `${path}.${key}`, { min: 0 }));
  return {
    provisioningMs: read('provisioningMs'),
    startingMs: read('startingMs'),
    gpuAttachMs: read('gpuAttachMs'),
    modelLoadMs: read('modelLoadMs'),
    chatMs: read('chatMs'),
    terminateMs: read('terminateMs'),
    billingLagMs: read('billingLagMs'),
  };
}

function readWire(value: unknown, base: WireVariants, path: string): WireVariants {
  const record = asRecord(value, path);
  onlyKeys(record, ['memoryKey', 'uptimeKey', 'listShape', 'attachRuntime', 'proxyBrowserUaOnly'], path);
  return {
    memoryKey: optional(record.memoryKey, base.memoryKey, (v) =>
      asOneOf(v, `${path}.memoryKey`, ['memory', 'memoryInGb'] as const),
    ),
    uptimeKey: optional(record.uptimeKey, base.uptimeKey, (v) =>
      asOneOf(v, `${path}.uptimeKey`, ['uptime', 'uptimeInSeconds'] as const),
    ),
    listShape: optional(record.listShape, base.listShape, (v) =>
      asOneOf(v, `${path}.listShape`, ['array', 'object'] as const),
    ),
    attachRuntime: optional(record.attachRuntime, base.attachRuntime, (v) =>
      asOneOf(v, `${path}.attachRuntime`, ATTACH_RUNTIMES),
    ),
    proxyBrowserUaOnly: optional(record.proxyBrowserUaOnly, base.proxyBrowserUaOnly, (v) =>
      asBoolean(v, `${path}.proxyBrowserUaOnly`),
    ),
  };
}

function readVllm(value: unknown, base: VllmSettings, path: string): VllmSettings {
  const record = asRecord(value, path);
  onlyKeys(record, ['maxConcurrency', 'completionTokens', 'createdSamples'], path);
  return {
    maxConcurrency: optional(record.maxConcurrency, base.maxConcurrency, (v) =>
      asNumber(v, `${path}.maxConcurrency`, { integer: true, min: 1, max: 10_000 }),
    ),
    completionTokens: optional(record.completionTokens, base.completionTokens, (v) =>
      asNumber(v, `${path}.completionTokens`, { integer: true, min: 1, max: 1_000_000 }),
    ),
    createdSamples: optional(record.createdSamples, base.createdSamples, (v) =>
      asBoolean(v, `${path}.createdSamples`),
    ),
  };
}

function readList<T>(value: unknown, path: string, readItem: (item: unknown, itemPath: string) => T): T[] {
  return asArray(value, path).map((item, index) => readItem(item, `${path}[${index}]`));
}

export function readCatalogGpu(value: unknown, path: string): CatalogGpu {
  const record = asRecord(value, path);
  onlyKeys(
    record,
    ['id', 'displayName', 'memory', 'memoryInGb', 'price', 'availability', 'dataCenters'],
    path,
  );
  const id = asString(record.id, `${path}.id`);
  const memoryRaw = record.memory !== undefined ? record.memory : record.memoryInGb;
  const price = optional<JsonRecord>(record.price, {}, (v) => asRecord(v, `${path}.price`));
  onlyKeys(price, ['secure', 'community'], `${path}.price`);
  return {
    id,
    displayName: optional(record.displayName, id, (v) => asString(v, `${path}.displayName`)),
    memory: optional(memoryRaw, null, (v) => asNullableNumber(v, `${path}.memory`, { min: 0 })),
    price: {
      secure: optional(price.secure, null, (v) => asNullableNumber(v, `${path}.price.secure`, { min: 0 })),
      community: optional(price.community, null, (v) =>
        asNullableNumber(v, `${path}.price.community`, { min: 0 }),
      ),
    },
    availability: optional(record.availability, null, (v) =>
      v === null ? null : asOneOf(v, `${path}.availability`, AVAILABILITIES),
    ),
    dataCenters: optional(record.dataCenters, [], (v) =>
      readList(v, `${path}.dataCenters`, (item, itemPath) => {
        const dc = asRecord(item, itemPath);
        onlyKeys(dc, ['id', 'availability'], itemPath);
        return {
          id: asString(dc.id, `${itemPath}.id`),
          availability: asOneOf(dc.availability, `${itemPath}.availability`, AVAILABILITIES),
        };
      }),
    ),
  };
}

function readVolume(value: unknown, path: string): SimVolume {
  const record = asRecord(value, path);
  onlyKeys(record, ['id', 'name', 'dataCenterId', 'sizeGb'], path);
  const id = asString(record.id, `${path}.id`);
  return {
    id,
    name: optional(record.name, id, (v) => asString(v, `${path}.name`)),
    dataCenterId: asString(record.dataCenterId, `${path}.dataCenterId`),
    sizeGb: optional(record.sizeGb, 100, (v) => asNumber(v, `${path}.sizeGb`, { min: 1 })),
  };
}

function readTemplate(value: unknown, path: string): SimTemplate {
  const record = asRecord(value, path);
  onlyKeys(record, ['id', 'name', 'imageName', 'modelName', 'port'], path);
  const id = asString(record.id, `${path}.id`);
  return {
    id,
    name: optional(record.name, id, (v) => asString(v, `${path}.name`)),
    imageName: optional(record.imageName, 'vllm/vllm-openai:latest', (v) => asString(v, `${path}.imageName`)),
    modelName: optional(record.modelName, 'Qwen/Qwen2.5-32B-Instruct-AWQ', (v) =>
      asString(v, `${path}.modelName`),
    ),
    port: optional(record.port, 8000, (v) =>
      asNumber(v, `${path}.port`, { integer: true, min: 1, max: 65535 }),
    ),
  };
}

export function readPodSeed(value: unknown, path: string): PodSeed {
  const record = asRecord(value, path);
  onlyKeys(
    record,
    [
      'id',
      'name',
      'status',
      'gpuId',
      'gpuCount',
      'volumeId',
      'templateId',
      'dataCenterId',
      'createdAt',
      'port',
      'costPerHr',
      'clusterId',
      'vllmReady',
      'behaviour',
    ],
    path,
  );
  const text = (key: string): string | null =>
    optional<string | null>(record[key], null, (v) => asString(v, `${path}.${key}`));
  const createdAt = text('createdAt');
  if (createdAt !== null && Number.isNaN(Date.parse(createdAt))) {
    throw new JsonShapeError(`${path}.createdAt`, 'expected an ISO date-time');
  }
  return {
    id: text('id'),
    name: text('name'),
    status: asOneOf(record.status, `${path}.status`, POD_STATUS_WORDS),
    gpuId: text('gpuId'),
    gpuCount: optional(record.gpuCount, 1, (v) =>
      asNumber(v, `${path}.gpuCount`, { integer: true, min: 1, max: 8 }),
    ),
    volumeId: optional<string | null | undefined>(record.volumeId, undefined, (v) =>
      v === null ? null : asString(v, `${path}.volumeId`),
    ),
    templateId: text('templateId'),
    dataCenterId: text('dataCenterId'),
    createdAt,
    port: optional<number | null>(record.port, null, (v) =>
      asNumber(v, `${path}.port`, { integer: true, min: 1, max: 65535 }),
    ),
    costPerHr: optional<number | null>(record.costPerHr, null, (v) =>
      asNumber(v, `${path}.costPerHr`, { min: 0 }),
    ),
    clusterId: text('clusterId'),
    vllmReady: optional(record.vllmReady, true, (v) => asBoolean(v, `${path}.vllmReady`)),
    behaviour: optional(record.behaviour, 'normal', (v) => asOneOf(v, `${path}.behaviour`, VLLM_BEHAVIOURS)),
  };
}

function requireUniqueIds(items: readonly { readonly id: string }[], path: string): void {
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.id)) throw new JsonShapeError(path, `duplicate id ${item.id}`);
    seen.add(item.id);
  }
}
