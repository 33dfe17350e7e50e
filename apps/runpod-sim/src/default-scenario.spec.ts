import { DEFAULT_SCENARIO } from './default-scenario';
import { CatalogGpu } from './scenario';

/** The default catalog reproduces the price-cap incident's shape; these rows keep it that way. */
describe('default scenario', () => {
  const catalog = DEFAULT_SCENARIO.catalog;
  const inEuRo1 = (gpu: CatalogGpu): string | null =>
    gpu.dataCenters.find((dc) => dc.id === 'EU-RO-1')?.availability ?? null;
  /**
   * The EU-RO-1 rows of the documented table (docs/simulator.md), as literal data, with the verdict each
   * earns under the defaults (1.00 USD/h cap, 32 GB floor, no allowlist). The simulator cannot import the
   * wake's rule; test/contract/catalog.e2e-spec.ts runs that rule over this catalog and must agree.
   */
  const EU_RO_1_ROWS: ReadonlyArray<
    [id: string, vramGb: number | null, secure: number | null, availability: string, verdict: string]
  > = [
    ['NVIDIA RTX A6000', 48, 0.49, 'LOW', 'eligible'],
    ['NVIDIA GeForce RTX 4090', 24, 0.69, 'HIGH', 'below the 32 GB floor'],
    ['NVIDIA RTX A5000', 24, 0.27, 'MEDIUM', 'below the 32 GB floor'],
    ['NVIDIA RTX 6000 Ada Generation', 48, 0.77, 'NONE', 'no capacity'],
    ['NVIDIA A40', 48, null, 'HIGH', 'no secure price'],
    ['NVIDIA L40S', 48, 1.09, 'MEDIUM', 'above the cap'],
    ['NVIDIA A100 80GB PCIe', 80, 1.59, 'MEDIUM', 'above the cap'],
    ['NVIDIA RTX PRO 6000 Blackwell Server Edition', 96, 1.79, 'MEDIUM', 'above the cap'],
    ['AMD Instinct MI300X OAM', 192, 2.49, 'LOW', 'above the cap'],
  ];
  const byId = (id: string): CatalogGpu => {
    const gpu = catalog.find((g) => g.id === id);
    if (gpu === undefined) throw new Error(`missing ${id}`);
    return gpu;
  };

  it('has about twenty GPUs, most of them not offered in EU-RO-1', () => {
    expect(catalog.length).toBeGreaterThanOrEqual(20);
    expect(catalog.filter((gpu) => inEuRo1(gpu) === null).length).toBeGreaterThan(catalog.length / 2);
  });

  it('EU-RO-1 offers exactly the documented rows, in catalog order, with their VRAM, secure price and availability', () => {
    const offered = catalog.filter((gpu) => inEuRo1(gpu) !== null);
    expect(offered.map((gpu) => [gpu.id, gpu.memory, gpu.price.secure, inEuRo1(gpu)])).toEqual(
      EU_RO_1_ROWS.map(([id, vram, secure, availability]) => [id, vram, secure, availability]),
    );
  });

  it('exactly one GPU (the RTX A6000 at 0.49, LOW) is documented eligible under a 1.00 cap in EU-RO-1', () => {
    expect(EU_RO_1_ROWS.filter((row) => row[4] === 'eligible').map((row) => row[0])).toEqual([
      'NVIDIA RTX A6000',
    ]);
    expect(byId('NVIDIA RTX A6000')).toMatchObject({ memory: 48, price: { secure: 0.49 } });
    expect(inEuRo1(byId('NVIDIA RTX A6000'))).toBe('LOW');
  });

  it('the capable cards sit above the 1.00 cap: L40S 1.09, A100 PCIe 1.59, RTX PRO 6000 SE 1.79, MI300X 2.49', () => {
    expect(
      [
        'NVIDIA L40S',
        'NVIDIA A100 80GB PCIe',
        'NVIDIA RTX PRO 6000 Blackwell Server Edition',
        'AMD Instinct MI300X OAM',
      ].map((id) => [byId(id).price.secure, inEuRo1(byId(id)) !== null && inEuRo1(byId(id)) !== 'NONE']),
    ).toEqual([
      [1.09, true],
      [1.59, true],
      [1.79, true],
      [2.49, true],
    ]);
  });

  it('EU-RO-1 holds two cards below 32 GB, one with availability NONE and one without a secure price', () => {
    const offered = catalog.filter((gpu) => inEuRo1(gpu) !== null);
    expect(offered.filter((gpu) => gpu.memory !== null && gpu.memory < 32)).toHaveLength(2);
    expect(offered.filter((gpu) => inEuRo1(gpu) === 'NONE')).toHaveLength(1);
    expect(offered.filter((gpu) => gpu.price.secure === null)).toHaveLength(1);
  });

  it('has the EU-RO-1 volume and the vLLM template the demo uses', () => {
    expect(DEFAULT_SCENARIO.volumes).toContainEqual(
      expect.objectContaining({ id: 'vol-eu-ro-1', dataCenterId: 'EU-RO-1' }),
    );
    expect(DEFAULT_SCENARIO.templates).toContainEqual(
      expect.objectContaining({ id: 'tpl-vllm-qwen', port: 8000 }),
    );
  });
});
