import {
  allowedUsd,
  BILLING_GRANULARITY_MINUTES,
  explainedUsd,
  findBillingMismatches,
  MISMATCH_TOLERANCE_FRACTION,
  MISMATCH_TOLERANCE_USD,
  type BillingMismatch,
  type MismatchInput,
  type RecordedPod,
  type RecordedSpan,
} from './billing-mismatch';

const H = 3_600_000;
const T0 = Date.parse('2026-12-01T10:00:00Z');
const hour = (n: number): string => new Date(T0 + n * H).toISOString();

function input(overrides: Partial<MismatchInput>): MismatchInput {
  return { buckets: [], recorded: [], onVolume: [], windowStartMs: T0, now: T0 + 10 * H, ...overrides };
}
const pod = (spans: RecordedSpan[], pricePerHour: number | null = 1, podId = 'p1'): RecordedPod => ({
  podId,
  podName: 'qwen',
  pricePerHour,
  spans,
});

describe('billing mismatch: the constants', () => {
  it('two minutes per start, 5 cents or 10 %', () => {
    expect([BILLING_GRANULARITY_MINUTES, MISMATCH_TOLERANCE_USD, MISMATCH_TOLERANCE_FRACTION]).toEqual([
      2, 0.05, 0.1,
    ]);
  });
});

describe(explainedUsd.name, () => {
  // Window [T0, T0 + 10 h], 1 USD/h: the explained amount is the recorded hours inside it.
  it.each<[string, RecordedSpan[], number]>([
    ['a span inside the window', [{ fromMs: T0 + H, toMs: T0 + 3 * H }], 2],
    [
      'a span wholly before the window adds nothing, not a negative',
      [{ fromMs: T0 - 5 * H, toMs: T0 - 2 * H }],
      0,
    ],
    ['a span across the window start counts from the start', [{ fromMs: T0 - 5 * H, toMs: T0 + H }], 1],
    ['a span past now counts up to now', [{ fromMs: T0 + 9 * H, toMs: T0 + 12 * H }], 1],
    ['an open span counts up to now', [{ fromMs: T0 + 8 * H, toMs: null }], 2],
    ['an open span starting after now adds nothing', [{ fromMs: T0 + 11 * H, toMs: null }], 0],
    [
      'spans add up',
      [
        { fromMs: T0, toMs: T0 + H / 2 },
        { fromMs: T0 + H, toMs: T0 + 2 * H },
      ],
      1.5,
    ],
    ['no spans: nothing', [], 0],
  ])('%s', (_rule, spans, hours) => {
    expect(explainedUsd(pod(spans), T0, T0 + 10 * H)).toBeCloseTo(hours, 12);
  });

  it('scales with the price, and is unknown without one', () => {
    expect(explainedUsd(pod([{ fromMs: T0, toMs: T0 + 2 * H }], 0.25), T0, T0 + 10 * H)).toBeCloseTo(0.5, 12);
    expect(explainedUsd(pod([{ fromMs: T0, toMs: T0 + 2 * H }], null), T0, T0 + 10 * H)).toBeNull();
  });
});

describe(allowedUsd.name, () => {
  it.each<[number, number, number, number]>([
    // explained, price, spans → explained + price × 2 min × max(1, spans) + max(0.05, 10 % of explained)
    [0, 0.6, 0, 0.02 + 0.05],
    [0, 0.6, 1, 0.02 + 0.05],
    [0, 0.6, 3, 0.06 + 0.05],
    [0.5, 0.6, 1, 0.5 + 0.02 + 0.05],
    [0.6, 0.6, 1, 0.6 + 0.02 + 0.06],
    [20, 3, 2, 20 + 0.2 + 2],
  ])('explained %s at %s USD/h over %s spans allows %s', (explained, price, spans, allowed) => {
    expect(allowedUsd(explained, price, spans)).toBeCloseTo(allowed, 12);
  });
});

describe(findBillingMismatches.name, () => {
  const oneHour = [{ fromMs: T0, toMs: T0 + H }];
  const limit = allowedUsd(1, 1, 1);

  it.each<[string, Partial<MismatchInput>, BillingMismatch[]]>([
    [
      'billed exactly the allowance: no finding',
      { buckets: [{ podId: 'p1', startMs: T0, usd: limit }], recorded: [pod(oneHour)] },
      [],
    ],
    [
      'billed a hair over the allowance: exceeds, with both amounts',
      { buckets: [{ podId: 'p1', startMs: T0, usd: limit + 1e-9 }], recorded: [pod(oneHour)] },
      [
        {
          podId: 'p1',
          podName: 'qwen',
          kind: 'exceeds',
          billedUsd: limit + 1e-9,
          explainedUsd: 1,
          fromHour: hour(0),
          toHour: hour(0),
          hours: 1,
        },
      ],
    ],
    [
      'each recorded span adds its own granularity (two spans: 1 + 4/60 + 0.1)',
      {
        buckets: [{ podId: 'p1', startMs: T0, usd: 1.15 }],
        recorded: [
          pod([
            { fromMs: T0, toMs: T0 + H / 2 },
            { fromMs: T0 + H, toMs: T0 + 1.5 * H },
          ]),
        ],
      },
      [],
    ],
    [
      'an unknown pod on a volume: its billed total and hours, nothing explained',
      {
        buckets: [
          { podId: 'ghost', startMs: T0 + 2 * H, usd: 0.25 },
          { podId: 'ghost', startMs: T0, usd: 0 },
          { podId: 'ghost', startMs: T0 + H, usd: 0.5 },
          { podId: 'ghost', startMs: T0 + H, usd: 0.25 },
        ],
        onVolume: [{ podId: 'ghost', podName: 'llama' }],
      },
      [
        {
          podId: 'ghost',
          podName: 'llama',
          kind: 'unknown-pod',
          billedUsd: 1,
          explainedUsd: null,
          fromHour: hour(1),
          toHour: hour(2),
          hours: 2,
        },
      ],
    ],
    [
      'a pod in our records without a start is named after our records, not its volume',
      {
        buckets: [{ podId: 'p1', startMs: T0, usd: 0.5 }],
        recorded: [pod([])],
        onVolume: [{ podId: 'p1', podName: 'llama' }],
      },
      [
        {
          podId: 'p1',
          podName: 'qwen',
          kind: 'unknown-pod',
          billedUsd: 0.5,
          explainedUsd: null,
          fromHour: hour(0),
          toHour: hour(0),
          hours: 1,
        },
      ],
    ],
    [
      "a pod neither recorded nor on a volume is someone else's: not judged",
      {
        buckets: [{ podId: 'foreign', startMs: T0, usd: 9 }],
        onVolume: [{ podId: 'ghost', podName: 'llama' }],
      },
      [],
    ],
    [
      'a recorded pod without a price is not judged, however much it is billed',
      { buckets: [{ podId: 'p1', startMs: T0, usd: 99 }], recorded: [pod(oneHour, null)] },
      [],
    ],
    [
      'credits cancelling charges are nothing billed',
      {
        buckets: [
          { podId: 'ghost', startMs: T0, usd: 0.5 },
          { podId: 'ghost', startMs: T0 + H, usd: -0.5 },
        ],
        onVolume: [{ podId: 'ghost', podName: 'llama' }],
      },
      [],
    ],
    [
      'buckets with no finite amount or start are ignored',
      {
        buckets: [
          { podId: 'ghost', startMs: T0, usd: 0.5 },
          { podId: 'ghost', startMs: T0 + H, usd: NaN },
          { podId: 'ghost', startMs: NaN, usd: 0.5 },
          { podId: 'ghost', startMs: Infinity, usd: 0.5 },
          { podId: 'ghost', startMs: T0 + 2 * H, usd: Infinity },
        ],
        onVolume: [{ podId: 'ghost', podName: 'llama' }],
      },
      [
        {
          podId: 'ghost',
          podName: 'llama',
          kind: 'unknown-pod',
          billedUsd: 0.5,
          explainedUsd: null,
          fromHour: hour(0),
          toHour: hour(0),
          hours: 1,
        },
      ],
    ],
    [
      'findings come sorted by pod id',
      {
        buckets: [
          { podId: 'b', startMs: T0, usd: 1 },
          { podId: 'a', startMs: T0, usd: 1 },
        ],
        onVolume: [
          { podId: 'a', podName: 'qwen' },
          { podId: 'b', podName: 'qwen' },
        ],
      },
      ['a', 'b'].map((podId) => ({
        podId,
        podName: 'qwen',
        kind: 'unknown-pod' as const,
        billedUsd: 1,
        explainedUsd: null,
        fromHour: hour(0),
        toHour: hour(0),
        hours: 1,
      })),
    ],
  ])('%s', (_rule, overrides, expected) => {
    expect(findBillingMismatches(input(overrides))).toEqual(expected);
  });
});
