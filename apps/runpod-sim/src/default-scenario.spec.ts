import { DEFAULT_SCENARIO } from './default-scenario';
import { CatalogGpu } from './scenario';

/** The default catalog reproduces the price-cap incident's shape; these rows keep it that way. */
describe('default scenario', () => {
  const catalog = DEFAULT_SCENARIO.catalog;
  const inEuRo1 = (gpu: CatalogGpu): string | null =>
    gpu.dataCenters.find((dc) => dc.id === 'EU-RO-1')?.availability ?? null;
  const eligibleUnder = (cap: number): string[] =>
    catalog
      .filter((gpu) => {
        const availability = inEuRo1(gpu);
        const vramOk = gpu.memory === null || gpu.memory >= 32;
        return (
          availability !== null &&
          availability !== 'NONE' &&
          vramOk &&
          gpu.price.secure !== null &&
          gpu.price.secure <= cap
        );
      })
      .map((gpu) => gpu.id);
  const byId = (id: string): CatalogGpu => {
    const gpu = catalog.find((g) => g.id === id);
    if (gpu === undefined) throw new Error(`missing ${id}`);
    return gpu;
  };

  it('has about twenty GPUs, most of them not offered in EU-RO-1', () => {
    expect(catalog.length).toBeGreaterThanOrEqual(20);
    expect(catalog.filter((gpu) => inEuRo1(gpu) === null).length).toBeGreaterThan(catalog.length / 2);
  });

  it('exactly one GPU (the RTX A6000 at 0.49, LOW) is eligible under a 1.00 cap in EU-RO-1', () => {
    expect(eligibleUnder(1.0)).toEqual(['NVIDIA RTX A6000']);
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
