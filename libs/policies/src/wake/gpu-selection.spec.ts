import fc from 'fast-check';
import type { Availability, DataCenterAvailability, GpuCatalogEntry } from '../domain/gpu';
import {
  compareGpuCandidates,
  describeExclusions,
  judgeGpu,
  selectGpus,
  type GpuCandidate,
  type GpuExclusion,
  type GpuSelectionCriteria,
} from './gpu-selection';

const OUR_DC = 'EU-RO-1';

const gpu = (
  id: string,
  securePrice: number | null,
  vramGb: number | null,
  dataCenters: DataCenterAvailability[],
  availability: Availability = 'HIGH',
): GpuCatalogEntry => ({ id, securePrice, vramGb, dataCenters, availability });
const inOurDc = (availability: Availability = 'HIGH'): DataCenterAvailability[] => [
  { id: OUR_DC, availability },
];

const criteria = (change: Partial<GpuSelectionCriteria> = {}): GpuSelectionCriteria => ({
  dataCenterId: OUR_DC,
  minVramGb: 32,
  maxPricePerHour: 1.0,
  allowlist: [],
  ...change,
});

// The 2026-09-11 incident, reduced: most GPUs live elsewhere, two are too small,
// and the capable cards in our datacenter sit just above a 1.00 cap.
const incidentCatalog: GpuCatalogEntry[] = [
  gpu('NVIDIA H100 80GB HBM3', 2.69, 80, [{ id: 'US-KS-2', availability: 'HIGH' }]),
  gpu('NVIDIA RTX 4090', 0.69, 24, [{ id: 'US-TX-3', availability: 'HIGH' }]),
  gpu('AMD Instinct MI300X OAM', 2.49, 192, inOurDc('LOW')),
  gpu('NVIDIA RTX A5000', 0.27, 24, inOurDc('HIGH')),
  gpu('NVIDIA RTX PRO 6000 Blackwell Server Edition', 1.84, 96, inOurDc('MEDIUM')),
  gpu('NVIDIA RTX PRO 4500 Blackwell', 0.64, 32, inOurDc('LOW')),
  gpu('NVIDIA L40S', 1.09, 48, [
    { id: 'US-GA-1', availability: 'HIGH' },
    { id: OUR_DC, availability: 'MEDIUM' },
  ]),
  gpu('NVIDIA GeForce RTX 3090', 0.22, 24, inOurDc('HIGH')),
  gpu('NVIDIA A100 80GB PCIe', 1.59, 80, inOurDc('LOW')),
  gpu('NVIDIA A40', 0.4, 48, [{ id: 'CA-MTL-1', availability: 'MEDIUM' }]),
  gpu('NVIDIA H200', 3.59, 141, [{ id: 'EU-SE-1', availability: 'LOW' }]),
];

describe('selectGpus with the price-cap incident catalog', () => {
  it('a 1.00 cap leaves one candidate and prices every capable card in our datacenter out', () => {
    const selection = selectGpus(incidentCatalog, criteria({ maxPricePerHour: 1.0 }));
    expect(selection.candidates).toEqual<GpuCandidate[]>([
      {
        gpuId: 'NVIDIA RTX PRO 4500 Blackwell',
        pricePerHour: 0.64,
        dataCenterAvailability: 'LOW',
        vramGb: 32,
      },
    ]);
    expect(selection.excluded).toEqual<GpuExclusion[]>([
      { gpuId: 'NVIDIA H100 80GB HBM3', reason: 'NotInDataCenter' },
      { gpuId: 'NVIDIA RTX 4090', reason: 'NotInDataCenter' },
      { gpuId: 'AMD Instinct MI300X OAM', reason: 'PriceAboveMaximum' },
      { gpuId: 'NVIDIA RTX A5000', reason: 'BelowMinVram' },
      { gpuId: 'NVIDIA RTX PRO 6000 Blackwell Server Edition', reason: 'PriceAboveMaximum' },
      { gpuId: 'NVIDIA L40S', reason: 'PriceAboveMaximum' },
      { gpuId: 'NVIDIA GeForce RTX 3090', reason: 'BelowMinVram' },
      { gpuId: 'NVIDIA A100 80GB PCIe', reason: 'PriceAboveMaximum' },
      { gpuId: 'NVIDIA A40', reason: 'NotInDataCenter' },
      { gpuId: 'NVIDIA H200', reason: 'NotInDataCenter' },
    ]);
  });

  it('a 2.00 cap admits the L40S at 1.09 and the A100 80GB at 1.59, still cheapest first', () => {
    const selection = selectGpus(incidentCatalog, criteria({ maxPricePerHour: 2.0 }));
    expect(selection.candidates).toEqual<GpuCandidate[]>([
      {
        gpuId: 'NVIDIA RTX PRO 4500 Blackwell',
        pricePerHour: 0.64,
        dataCenterAvailability: 'LOW',
        vramGb: 32,
      },
      { gpuId: 'NVIDIA L40S', pricePerHour: 1.09, dataCenterAvailability: 'MEDIUM', vramGb: 48 },
      { gpuId: 'NVIDIA A100 80GB PCIe', pricePerHour: 1.59, dataCenterAvailability: 'LOW', vramGb: 80 },
      {
        gpuId: 'NVIDIA RTX PRO 6000 Blackwell Server Edition',
        pricePerHour: 1.84,
        dataCenterAvailability: 'MEDIUM',
        vramGb: 96,
      },
    ]);
    expect(selection.excluded.filter((e) => e.reason === 'PriceAboveMaximum')).toEqual([
      { gpuId: 'AMD Instinct MI300X OAM', reason: 'PriceAboveMaximum' },
    ]);
  });

  it('the 409 detail names every excluded GPU with its reason, in catalog order', () => {
    const { excluded } = selectGpus(incidentCatalog, criteria({ maxPricePerHour: 0.5 }));
    expect(describeExclusions(excluded)).toBe(
      'NVIDIA H100 80GB HBM3: NotInDataCenter; NVIDIA RTX 4090: NotInDataCenter; ' +
        'AMD Instinct MI300X OAM: PriceAboveMaximum; NVIDIA RTX A5000: BelowMinVram; ' +
        'NVIDIA RTX PRO 6000 Blackwell Server Edition: PriceAboveMaximum; ' +
        'NVIDIA RTX PRO 4500 Blackwell: PriceAboveMaximum; NVIDIA L40S: PriceAboveMaximum; ' +
        'NVIDIA GeForce RTX 3090: BelowMinVram; NVIDIA A100 80GB PCIe: PriceAboveMaximum; ' +
        'NVIDIA A40: NotInDataCenter; NVIDIA H200: NotInDataCenter',
    );
  });
});

describe('describeExclusions', () => {
  it.each<[GpuExclusion[], string]>([
    [[], ''],
    [[{ gpuId: 'NVIDIA RTX 4090', reason: 'NotInDataCenter' }], 'NVIDIA RTX 4090: NotInDataCenter'],
    [
      [
        { gpuId: 'AMD Instinct MI300X OAM', reason: 'PriceAboveMaximum' },
        { gpuId: 'NVIDIA RTX 4090', reason: 'NotInDataCenter' },
      ],
      'AMD Instinct MI300X OAM: PriceAboveMaximum; NVIDIA RTX 4090: NotInDataCenter',
    ],
  ])('names every excluded GPU: %j → %s', (excluded, detail) => {
    expect(describeExclusions(excluded)).toBe(detail);
  });
});

describe('selectGpus rules', () => {
  const only = (entry: GpuCatalogEntry, change: Partial<GpuSelectionCriteria> = {}) =>
    selectGpus([entry], criteria(change));
  const reasonFor = (entry: GpuCatalogEntry, change: Partial<GpuSelectionCriteria> = {}) =>
    only(entry, change).excluded[0]?.reason ?? 'eligible';

  it.each<[string, GpuCatalogEntry, Partial<GpuSelectionCriteria>, string]>([
    [
      'the cap is inclusive: price equal to the cap is eligible',
      gpu('g', 1.59, 80, inOurDc()),
      { maxPricePerHour: 1.59 },
      'eligible',
    ],
    [
      'a cent above the cap is excluded',
      gpu('g', 1.6, 80, inOurDc()),
      { maxPricePerHour: 1.59 },
      'PriceAboveMaximum',
    ],
    ['a free GPU is eligible (0 is a known price)', gpu('g', 0, 80, inOurDc()), {}, 'eligible'],
    ['a null price is never eligible', gpu('g', null, 80, inOurDc()), {}, 'NoSecurePrice'],
    ['a NaN price is not a known price', gpu('g', Number.NaN, 80, inOurDc()), {}, 'NoSecurePrice'],
    [
      'an infinite price is not a known price',
      gpu('g', Number.POSITIVE_INFINITY, 80, inOurDc()),
      {},
      'NoSecurePrice',
    ],
    [
      'a negative infinite price is not a known price',
      gpu('g', Number.NEGATIVE_INFINITY, 80, inOurDc()),
      {},
      'NoSecurePrice',
    ],
    ['a negative price is not a known price', gpu('g', -0.01, 80, inOurDc()), {}, 'NoSecurePrice'],
    [
      'a NaN cap admits nothing',
      gpu('g', 0.1, 80, inOurDc()),
      { maxPricePerHour: Number.NaN },
      'PriceAboveMaximum',
    ],
    ['VRAM equal to the floor is eligible', gpu('g', 0.5, 32, inOurDc()), {}, 'eligible'],
    ['VRAM just below the floor is excluded', gpu('g', 0.5, 31.9, inOurDc()), {}, 'BelowMinVram'],
    ['unknown VRAM passes the floor', gpu('g', 0.5, null, inOurDc()), {}, 'eligible'],
    [
      'a NaN floor lets no known VRAM through',
      gpu('g', 0.5, 80, inOurDc()),
      { minVramGb: Number.NaN },
      'BelowMinVram',
    ],
    [
      'NONE in our datacenter is no capacity, even with HIGH elsewhere and globally',
      gpu(
        'g',
        0.5,
        80,
        [
          { id: 'US-KS-2', availability: 'HIGH' },
          { id: OUR_DC, availability: 'NONE' },
        ],
        'HIGH',
      ),
      {},
      'NoCapacity',
    ],
    ['LOW capacity in our datacenter is enough', gpu('g', 0.5, 80, inOurDc('LOW'), 'NONE'), {}, 'eligible'],
    [
      'a GPU only elsewhere is not in our datacenter',
      gpu('g', 0.5, 80, [{ id: 'EU-SE-1', availability: 'HIGH' }]),
      {},
      'NotInDataCenter',
    ],
    ['a GPU with no datacenters is not in ours', gpu('g', 0.5, 80, []), {}, 'NotInDataCenter'],
    [
      'the datacenter id matches case-insensitively',
      gpu('g', 0.5, 80, [{ id: 'eu-ro-1', availability: 'LOW' }]),
      {},
      'eligible',
    ],
    [
      'a configured datacenter matches case-insensitively and untrimmed',
      gpu('g', 0.5, 80, inOurDc()),
      { dataCenterId: ' eu-Ro-1 ' },
      'eligible',
    ],
    [
      'a datacenter id is not matched by prefix',
      gpu('g', 0.5, 80, [{ id: 'EU-RO-10', availability: 'HIGH' }]),
      {},
      'NotInDataCenter',
    ],
    [
      'a blank configured datacenter matches nothing, not even a blank one',
      gpu('g', 0.5, 80, [{ id: '', availability: 'HIGH' }]),
      { dataCenterId: '' },
      'NotInDataCenter',
    ],
    [
      'a whitespace configured datacenter matches nothing',
      gpu('g', 0.5, 80, [{ id: ' ', availability: 'HIGH' }]),
      { dataCenterId: '  ' },
      'NotInDataCenter',
    ],
    [
      'the first entry for our datacenter decides its capacity',
      gpu('g', 0.5, 80, [
        { id: OUR_DC, availability: 'NONE' },
        { id: OUR_DC, availability: 'HIGH' },
      ]),
      {},
      'NoCapacity',
    ],
    [
      'an allowlisted 24 GB card is eligible: the allowlist replaces the VRAM floor',
      gpu('NVIDIA RTX 4090', 0.69, 24, inOurDc()),
      { allowlist: ['NVIDIA RTX 4090'] },
      'eligible',
    ],
    [
      'the allowlist matches case-insensitively and untrimmed',
      gpu('NVIDIA RTX 4090', 0.69, 24, inOurDc()),
      { allowlist: ['  nvidia rtx 4090 '] },
      'eligible',
    ],
    [
      'a large card off the allowlist is excluded',
      gpu('NVIDIA A100 80GB PCIe', 0.9, 80, inOurDc()),
      { allowlist: ['NVIDIA RTX 4090'] },
      'NotAllowlisted',
    ],
    [
      'the allowlist matches whole ids only',
      gpu('NVIDIA RTX 4090 D', 0.9, 24, inOurDc()),
      { allowlist: ['NVIDIA RTX 4090'] },
      'NotAllowlisted',
    ],
    [
      'a blank allowlist entry is no allowlist: the VRAM floor applies',
      gpu('g', 0.5, 24, inOurDc()),
      { allowlist: ['', '  '] },
      'BelowMinVram',
    ],
    [
      'a blank allowlist entry is no allowlist: a capable card passes',
      gpu('g', 0.5, 80, inOurDc()),
      { allowlist: [' '] },
      'eligible',
    ],
    [
      'an allowlisted card still needs our datacenter',
      gpu('a', 0.5, 80, [{ id: 'US-TX-3', availability: 'HIGH' }]),
      { allowlist: ['a'] },
      'NotInDataCenter',
    ],
    [
      'an allowlisted card still needs capacity',
      gpu('a', 0.5, 80, inOurDc('NONE')),
      { allowlist: ['a'] },
      'NoCapacity',
    ],
    [
      'an allowlisted card still needs a known price',
      gpu('a', null, 80, inOurDc()),
      { allowlist: ['a'] },
      'NoSecurePrice',
    ],
    [
      'an allowlisted card still respects the cap',
      gpu('a', 1.01, 80, inOurDc()),
      { allowlist: ['a'] },
      'PriceAboveMaximum',
    ],
  ])('%s', (_rule, entry, change, expected) => {
    expect(reasonFor(entry, change)).toBe(expected);
    const judgement = judgeGpu(entry, criteria(change));
    expect(judgement.kind === 'eligible' ? 'eligible' : judgement).toEqual(
      expected === 'eligible' ? 'eligible' : { kind: 'excluded', reason: expected },
    );
    const selection = only(entry, change);
    expect(selection.candidates.length + selection.excluded.length).toBe(1);
  });

  it.each<[string, GpuCatalogEntry, Partial<GpuSelectionCriteria>, string]>([
    [
      'datacenter is checked before capacity, VRAM and price',
      gpu('g', null, 8, [{ id: 'X', availability: 'NONE' }]),
      {},
      'NotInDataCenter',
    ],
    ['capacity is checked before VRAM and price', gpu('g', null, 8, inOurDc('NONE')), {}, 'NoCapacity'],
    ['VRAM is checked before price', gpu('g', null, 8, inOurDc()), {}, 'BelowMinVram'],
    [
      'the allowlist is checked before price',
      gpu('g', null, 80, inOurDc()),
      { allowlist: ['other'] },
      'NotAllowlisted',
    ],
    [
      'a known price is checked before the cap',
      gpu('g', Number.NaN, 80, inOurDc()),
      { maxPricePerHour: 0 },
      'NoSecurePrice',
    ],
  ])('each GPU gets the first failing reason: %s', (_rule, entry, change, expected) => {
    expect(only(entry, change).excluded).toEqual([{ gpuId: 'g', reason: expected }]);
  });

  it.each<[string, GpuCatalogEntry, Partial<GpuSelectionCriteria>, string]>([
    [
      'a dotless ı in the allowlist is not an i',
      gpu('NVIDIA L40S', 0.5, 48, inOurDc()),
      { allowlist: ['NVıDıA L40S'] },
      'NotAllowlisted',
    ],
    [
      'a dotless ı in the datacenter id is not an i',
      gpu('g', 0.5, 48, [{ id: 'US-ıL-1', availability: 'HIGH' }]),
      { dataCenterId: 'US-IL-1' },
      'NotInDataCenter',
    ],
  ])('case folding never matches look-alike letters: %s', (_rule, entry, change, expected) => {
    expect(judgeGpu(entry, criteria(change))).toEqual({ kind: 'excluded', reason: expected });
  });

  it('an eligible judgement carries the candidate as ranked', () => {
    expect(
      judgeGpu(gpu('NVIDIA L40S', 1.09, 48, inOurDc('MEDIUM')), criteria({ maxPricePerHour: 2 })),
    ).toEqual({
      kind: 'eligible',
      candidate: { gpuId: 'NVIDIA L40S', pricePerHour: 1.09, dataCenterAvailability: 'MEDIUM', vramGb: 48 },
    });
  });

  it('a candidate carries our datacenter availability, not the global one, and its VRAM as given', () => {
    const entry = gpu(
      'g',
      0.5,
      null,
      [
        { id: 'US-KS-2', availability: 'HIGH' },
        { id: OUR_DC, availability: 'MEDIUM' },
      ],
      'HIGH',
    );
    expect(only(entry).candidates).toEqual([
      { gpuId: 'g', pricePerHour: 0.5, dataCenterAvailability: 'MEDIUM', vramGb: null },
    ]);
  });

  it('ranks cheapest first, then higher availability in our datacenter, then id', () => {
    const catalog = [
      gpu('b-low', 0.5, 80, inOurDc('LOW')),
      gpu('z-high', 0.5, 80, inOurDc('HIGH')),
      gpu('a-medium', 0.5, 80, inOurDc('MEDIUM')),
      gpu('cheap', 0.49, 80, inOurDc('LOW')),
      gpu('a-high', 0.5, 80, inOurDc('HIGH')),
      gpu('Z-high', 0.5, 80, inOurDc('HIGH')),
      gpu('dear', 0.51, 80, inOurDc('HIGH')),
      gpu('a-low', 0.5, 80, inOurDc('LOW')),
    ];
    const expected = ['cheap', 'Z-high', 'a-high', 'z-high', 'a-medium', 'a-low', 'b-low', 'dear'];
    expect(selectGpus(catalog, criteria()).candidates.map((c) => c.gpuId)).toEqual(expected);
    expect(selectGpus([...catalog].reverse(), criteria()).candidates.map((c) => c.gpuId)).toEqual(expected);
  });

  describe('compareGpuCandidates', () => {
    const candidate = (gpuId: string, pricePerHour: number, availability: Availability): GpuCandidate => ({
      gpuId,
      pricePerHour,
      dataCenterAvailability: availability,
      vramGb: null,
    });

    it.each<[string, GpuCandidate, GpuCandidate, number]>([
      ['the cheaper GPU comes first', candidate('z', 0.5, 'LOW'), candidate('a', 0.6, 'HIGH'), -1],
      ['the dearer GPU comes last', candidate('a', 0.6, 'HIGH'), candidate('z', 0.5, 'LOW'), 1],
      [
        'at equal price more capacity comes first',
        candidate('z', 0.5, 'HIGH'),
        candidate('a', 0.5, 'MEDIUM'),
        -1,
      ],
      [
        'at equal price less capacity comes last',
        candidate('a', 0.5, 'LOW'),
        candidate('z', 0.5, 'MEDIUM'),
        1,
      ],
      [
        'at equal price and capacity the lower id comes first',
        candidate('a', 0.5, 'LOW'),
        candidate('b', 0.5, 'LOW'),
        -1,
      ],
      [
        'at equal price and capacity the higher id comes last',
        candidate('b', 0.5, 'LOW'),
        candidate('a', 0.5, 'LOW'),
        1,
      ],
      [
        'ids compare by code unit: upper case before lower case',
        candidate('Z', 0.5, 'LOW'),
        candidate('a', 0.5, 'LOW'),
        -1,
      ],
      ['identical candidates are equal', candidate('a', 0.5, 'LOW'), candidate('a', 0.5, 'LOW'), 0],
    ])('%s', (_rule, a, b, sign) => {
      expect(Math.sign(compareGpuCandidates(a, b))).toBe(sign);
    });

    it('the id tie-break answers exactly -1, 1 or 0', () => {
      expect(compareGpuCandidates(candidate('a', 1, 'LOW'), candidate('b', 1, 'LOW'))).toBe(-1);
      expect(compareGpuCandidates(candidate('b', 1, 'LOW'), candidate('a', 1, 'LOW'))).toBe(1);
      expect(compareGpuCandidates(candidate('b', 1, 'LOW'), candidate('b', 1, 'LOW'))).toBe(0);
    });
  });

  it('an empty catalog yields no candidate and no exclusion', () => {
    expect(selectGpus([], criteria())).toEqual({ candidates: [], excluded: [] });
  });
});

describe('selectGpus properties', () => {
  const dcIds = ['EU-RO-1', 'eu-ro-1', 'US-KS-2', 'EU-SE-1'];
  const availabilityArb = fc.constantFrom<Availability>('NONE', 'LOW', 'MEDIUM', 'HIGH');
  const entryArb = (id: string): fc.Arbitrary<GpuCatalogEntry> =>
    fc.record({
      id: fc.constant(id),
      securePrice: fc.oneof(
        fc.constant(null),
        fc.constant(Number.NaN),
        fc.double({ min: -1, max: 5, noNaN: true }),
        fc.constantFrom(0, 1, 1.09, 1.59, 2),
      ),
      availability: availabilityArb,
      dataCenters: fc.array(fc.record({ id: fc.constantFrom(...dcIds), availability: availabilityArb }), {
        maxLength: 3,
      }),
      vramGb: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 200 })),
    });
  const catalogArb = fc
    .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'A', 'B'), {
      minLength: 1,
      maxLength: 10,
    })
    .chain((ids) => fc.tuple(...ids.map(entryArb)));
  const criteriaArb: fc.Arbitrary<GpuSelectionCriteria> = fc.record({
    dataCenterId: fc.constantFrom('EU-RO-1', 'eu-ro-1', 'US-KS-2'),
    minVramGb: fc.integer({ min: 0, max: 100 }),
    maxPricePerHour: fc.oneof(fc.double({ min: 0, max: 5, noNaN: true }), fc.constantFrom(1, 1.59, 2)),
    allowlist: fc.array(fc.constantFrom('a', 'B', ' c ', ''), { maxLength: 3 }),
  });

  /** The "never" rules, checked on one candidate against the entry it came from. */
  const expectWithinTheRules = (
    catalog: readonly GpuCatalogEntry[],
    crit: GpuSelectionCriteria,
    candidate: GpuCandidate,
  ): void => {
    const entry = catalog.find((e) => e.id === candidate.gpuId);
    expect(entry).toBeDefined();
    expect(candidate.pricePerHour).toBe(entry?.securePrice);
    expect(Number.isFinite(candidate.pricePerHour)).toBe(true);
    expect(candidate.pricePerHour).toBeGreaterThanOrEqual(0);
    expect(candidate.pricePerHour).toBeLessThanOrEqual(crit.maxPricePerHour);
    const ours = entry?.dataCenters.find((dc) => dc.id.toLowerCase() === crit.dataCenterId.toLowerCase());
    expect(ours).toBeDefined();
    expect(ours?.availability).not.toBe('NONE');
    expect(candidate.dataCenterAvailability).toBe(ours?.availability);
  };

  /** A GPU built to pass every rule of `crit`, under an id the allowlist admits (none is listed twice). */
  const eligibleEntryArb = (crit: GpuSelectionCriteria): fc.Arbitrary<GpuCatalogEntry> => {
    const allowed = crit.allowlist.map((id) => id.trim()).filter((id) => id !== '');
    return fc.record({
      id: allowed.length > 0 ? fc.constantFrom(...allowed) : fc.constant('eligible'),
      securePrice: fc.double({ min: 0, max: crit.maxPricePerHour, noNaN: true }),
      availability: availabilityArb,
      dataCenters: fc
        .constantFrom<Availability>('LOW', 'MEDIUM', 'HIGH')
        .map((availability) => [{ id: crit.dataCenterId.toUpperCase(), availability }]),
      vramGb: fc.oneof(fc.constant(null), fc.integer({ min: crit.minVramGb, max: 200 })),
    });
  };
  const withAnEligibleGpuArb = fc.tuple(catalogArb, criteriaArb).chain(([catalog, crit]) =>
    eligibleEntryArb(crit).map((eligible) => ({
      crit,
      eligible,
      catalog: [...catalog.filter((e) => e.id !== eligible.id), eligible],
    })),
  );

  it('never returns a GPU above the cap, without a known price, or without capacity in our datacenter', () => {
    fc.assert(
      fc.property(withAnEligibleGpuArb, ({ catalog, crit, eligible }) => {
        const { candidates } = selectGpus(catalog, crit);
        // The generator guarantees one candidate, so the rules below are always checked on something.
        expect(candidates.map((c) => c.gpuId)).toContain(eligible.id);
        for (const candidate of candidates) expectWithinTheRules(catalog, crit, candidate);
      }),
    );
  });

  // Catalogs are drawn non-empty, so every run of this property judges at least one GPU.
  it('a GPU that breaks a rule is never a candidate, whatever else the catalog holds', () => {
    fc.assert(
      fc.property(catalogArb, criteriaArb, (catalog, crit) => {
        const candidates = new Set(selectGpus(catalog, crit).candidates.map((c) => c.gpuId));
        for (const entry of catalog) {
          const ours = entry.dataCenters.find(
            (dc) => dc.id.toLowerCase() === crit.dataCenterId.toLowerCase(),
          );
          const price = entry.securePrice;
          const breaksARule =
            ours === undefined ||
            ours.availability === 'NONE' ||
            price === null ||
            !Number.isFinite(price) ||
            price < 0 ||
            price > crit.maxPricePerHour;
          if (breaksARule) expect(candidates.has(entry.id)).toBe(false);
        }
      }),
    );
  });

  it('partitions the catalog: every GPU appears exactly once, as a candidate or an exclusion', () => {
    fc.assert(
      fc.property(catalogArb, criteriaArb, (catalog, crit) => {
        const { candidates, excluded } = selectGpus(catalog, crit);
        const seen = [...candidates.map((c) => c.gpuId), ...excluded.map((e) => e.gpuId)].sort();
        expect(seen).toEqual(catalog.map((e) => e.id).sort());
        expect(excluded.map((e) => e.gpuId)).toEqual(
          catalog.map((e) => e.id).filter((id) => !candidates.some((c) => c.gpuId === id)),
        );
      }),
    );
  });

  it('candidates are never more expensive than the one after them', () => {
    fc.assert(
      fc.property(catalogArb, criteriaArb, (catalog, crit) => {
        const prices = selectGpus(catalog, crit).candidates.map((c) => c.pricePerHour);
        expect(prices).toEqual([...prices].sort((x, y) => x - y));
      }),
    );
  });
});
