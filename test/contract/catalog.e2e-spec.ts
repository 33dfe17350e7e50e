import { selectGpus, type Availability, type GpuCatalogEntry } from '@podwarden/policies';
import { DEFAULT_CATALOG } from '../../apps/runpod-sim/src/default-scenario';
import { ContractHarness, PAST_TIMEOUT_MS, type FaultRequest } from './support/contract-harness';

/** The expected mapping, read off the simulator's scenario data (not off the client's code). */
const RANK: readonly Availability[] = ['NONE', 'LOW', 'MEDIUM', 'HIGH'];
const EXPECTED_CATALOG: GpuCatalogEntry[] = DEFAULT_CATALOG.map((gpu) => ({
  id: gpu.id,
  securePrice: gpu.price.secure,
  // The default scenario leaves the overall figure to the best datacenter.
  availability:
    gpu.availability ?? RANK[Math.max(0, ...gpu.dataCenters.map((dc) => RANK.indexOf(dc.availability)))],
  dataCenters: gpu.dataCenters.map((dc) => ({ id: dc.id, availability: dc.availability })),
  vramGb: gpu.memory,
}));

describe('contract: getCatalog against the simulator', () => {
  let h: ContractHarness;

  beforeAll(async () => {
    h = await ContractHarness.start();
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('asks GET /catalog/gpus?include=AVAILABILITY&product=POD once, with no body', async () => {
    await h.client.getCatalog();
    const calls = await h.calls();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'GET',
      path: '/catalog/gpus',
      query: { include: 'AVAILABILITY', product: 'POD' },
      body: null,
      status: 200,
      authorized: true,
    });
  });

  it('maps the full default catalog: every GPU in order with secure price, availability, per-datacenter availability and VRAM', async () => {
    const catalog = await h.client.getCatalog();
    expect(catalog).toHaveLength(22);
    expect(catalog).toEqual(EXPECTED_CATALOG);
  });

  it("the wake's own GPU rule, with the default cap and floor, leaves exactly the RTX A6000 of the default catalog (the simulator's documented table says the same)", async () => {
    const selection = selectGpus(await h.client.getCatalog(), {
      dataCenterId: 'EU-RO-1',
      minVramGb: 32,
      maxPricePerHour: 1.0,
      allowlist: [],
    });
    expect(selection.candidates.map((c) => c.gpuId)).toEqual(['NVIDIA RTX A6000']);
    expect(selection.excluded.filter((e) => e.reason !== 'NotInDataCenter')).toEqual([
      { gpuId: 'NVIDIA GeForce RTX 4090', reason: 'BelowMinVram' },
      { gpuId: 'NVIDIA RTX A5000', reason: 'BelowMinVram' },
      { gpuId: 'NVIDIA RTX 6000 Ada Generation', reason: 'NoCapacity' },
      { gpuId: 'NVIDIA A40', reason: 'NoSecurePrice' },
      { gpuId: 'NVIDIA L40S', reason: 'PriceAboveMaximum' },
      { gpuId: 'NVIDIA A100 80GB PCIe', reason: 'PriceAboveMaximum' },
      { gpuId: 'NVIDIA RTX PRO 6000 Blackwell Server Edition', reason: 'PriceAboveMaximum' },
      { gpuId: 'AMD Instinct MI300X OAM', reason: 'PriceAboveMaximum' },
    ]);
  });

  it.each<[string, string, Partial<GpuCatalogEntry>]>([
    [
      'overall availability is the wire figure, per-datacenter availability kept in wire order',
      'NVIDIA RTX A6000',
      {
        securePrice: 0.49,
        availability: 'HIGH',
        vramGb: 48,
        dataCenters: [
          { id: 'EU-RO-1', availability: 'LOW' },
          { id: 'US-TX-3', availability: 'HIGH' },
          { id: 'CA-MTL-1', availability: 'MEDIUM' },
        ],
      },
    ],
    [
      'the secure price is price.secure, not community',
      'NVIDIA A100 80GB PCIe',
      { securePrice: 1.59, vramGb: 80 },
    ],
    [
      'a GPU with no secure price has securePrice null, never 0',
      'NVIDIA A40',
      { securePrice: null, vramGb: 48 },
    ],
    [
      'a GPU with no memory figure has vramGb null, never 0',
      'NVIDIA RTX PRO 4500 Blackwell',
      { vramGb: null },
    ],
    [
      'a datacenter listed as NONE stays NONE',
      'NVIDIA RTX 6000 Ada Generation',
      {
        dataCenters: [
          { id: 'EU-RO-1', availability: 'NONE' },
          { id: 'US-GA-1', availability: 'MEDIUM' },
        ],
      },
    ],
  ])('%s (%s)', async (_rule, id, expected) => {
    const entry = (await h.client.getCatalog()).find((gpu) => gpu.id === id);
    expect(entry).toMatchObject(expected);
  });

  it('reads VRAM from memoryInGb when the wire uses that key', async () => {
    await h.putConfig({ wire: { memoryKey: 'memoryInGb' } });
    const wire = (await h.wire('/catalog/gpus?include=AVAILABILITY&product=POD')).json as {
      gpus: Record<string, unknown>[];
    };
    expect(wire.gpus[0]).toHaveProperty('memoryInGb', 48);
    expect(wire.gpus[0]).not.toHaveProperty('memory');
    expect(await h.client.getCatalog()).toEqual(EXPECTED_CATALOG);
  });

  it.each<[string, FaultRequest]>([
    ['status 500', { route: 'catalog', kind: 'status', status: 500 }],
    ['status 429', { route: 'catalog', kind: 'status', status: 429, retryAfter: 5 }],
    ['unreadable (500)', { route: 'catalog', kind: 'unreadable' }],
    ['bare-404 (HTML page)', { route: 'catalog', kind: 'bare-404' }],
    ['malformed (2xx, truncated JSON)', { route: 'catalog', kind: 'malformed' }],
  ])('a catalog answered with %s is empty: no candidates, nothing billed', async (_name, fault) => {
    await h.injectFault(fault);
    expect(await h.client.getCatalog()).toEqual([]);
    const calls = await h.calls();
    expect(calls.map((call) => call.fault)).toEqual([fault.kind]);
  });

  it('a catalog delayed past the client timeout is empty', async () => {
    await h.injectFault({ route: 'catalog', kind: 'delay', delayMs: PAST_TIMEOUT_MS });
    const started = Date.now();
    expect(await h.impatient.getCatalog()).toEqual([]);
    expect(Date.now() - started).toBeLessThan(PAST_TIMEOUT_MS);
    await h.waitForCall((call) => call.fault === 'delay');
  });
});
