import { allowedUsd, explainedUsd, findBillingMismatches, type MismatchInput } from './billing-mismatch';

const H = 3_600_000;
const T0 = Date.parse('2026-12-01T10:00:00Z');

function input(overrides: Partial<MismatchInput>): MismatchInput {
  return {
    buckets: [],
    recorded: [],
    onVolume: [],
    windowStartMs: T0 - 24 * H,
    now: T0 + 3 * H,
    ...overrides,
  };
}

describe('billing mismatch rule', () => {
  it.each<[string, Partial<MismatchInput>, string[]]>([
    [
      'a pod on a configured volume billed with no record of ours',
      {
        buckets: [{ podId: 'ghost', startMs: T0, usd: 0.49 }],
        onVolume: [{ podId: 'ghost', podName: 'qwen' }],
      },
      ['ghost:unknown-pod:qwen'],
    ],
    [
      "a pod neither ours nor on a configured volume is someone else's",
      { buckets: [{ podId: 'foreign', startMs: T0, usd: 9 }] },
      [],
    ],
    [
      'a recorded pod billed for its recorded life is explained',
      {
        buckets: [{ podId: 'p1', startMs: T0, usd: 0.49 }],
        recorded: [
          { podId: 'p1', podName: 'qwen', pricePerHour: 0.49, spans: [{ fromMs: T0, toMs: T0 + H }] },
        ],
      },
      [],
    ],
    [
      'a recorded pod billed for twice its recorded life exceeds it',
      {
        buckets: [
          { podId: 'p1', startMs: T0, usd: 0.49 },
          { podId: 'p1', startMs: T0 + H, usd: 0.49 },
        ],
        recorded: [
          { podId: 'p1', podName: 'qwen', pricePerHour: 0.49, spans: [{ fromMs: T0, toMs: T0 + H }] },
        ],
      },
      ['p1:exceeds:qwen'],
    ],
    [
      'billing lagging behind the recorded life is never a finding',
      {
        buckets: [{ podId: 'p1', startMs: T0, usd: 0.1 }],
        recorded: [{ podId: 'p1', podName: 'qwen', pricePerHour: 0.49, spans: [{ fromMs: T0, toMs: null }] }],
      },
      [],
    ],
    [
      'a few minutes of granularity and stop lag stay within the tolerance',
      {
        buckets: [{ podId: 'p1', startMs: T0, usd: 0.49 * (62 / 60) }],
        recorded: [
          { podId: 'p1', podName: 'qwen', pricePerHour: 0.49, spans: [{ fromMs: T0, toMs: T0 + H }] },
        ],
      },
      [],
    ],
    [
      'a pod we only ever stopped (no start or create recorded) is unknown',
      {
        buckets: [{ podId: 'p2', startMs: T0, usd: 0.2 }],
        recorded: [{ podId: 'p2', podName: 'qwen', pricePerHour: 0.49, spans: [] }],
      },
      ['p2:unknown-pod:qwen'],
    ],
    [
      'a recorded pod without a price is not judged',
      {
        buckets: [{ podId: 'p3', startMs: T0, usd: 50 }],
        recorded: [
          { podId: 'p3', podName: 'qwen', pricePerHour: null, spans: [{ fromMs: T0, toMs: T0 + 60_000 }] },
        ],
      },
      [],
    ],
    [
      'zero billing is nothing to report',
      { buckets: [{ podId: 'ghost', startMs: T0, usd: 0 }], onVolume: [{ podId: 'ghost', podName: 'qwen' }] },
      [],
    ],
  ])('%s', (_rule, overrides, expected) => {
    const found = findBillingMismatches(input(overrides)).map((m) => `${m.podId}:${m.kind}:${m.podName}`);
    expect(found).toEqual(expected);
  });

  it('names the hours and the amounts', () => {
    const [mismatch] = findBillingMismatches(
      input({
        buckets: [
          { podId: 'p1', startMs: T0, usd: 0.49 },
          { podId: 'p1', startMs: T0 + H, usd: 0.49 },
        ],
        recorded: [
          { podId: 'p1', podName: 'qwen', pricePerHour: 0.49, spans: [{ fromMs: T0, toMs: T0 + H }] },
        ],
      }),
    );
    expect(mismatch).toEqual({
      podId: 'p1',
      podName: 'qwen',
      kind: 'exceeds',
      billedUsd: 0.98,
      explainedUsd: 0.49,
      fromHour: '2026-12-01T10:00:00.000Z',
      toHour: '2026-12-01T11:00:00.000Z',
      hours: 2,
    });
  });

  it('explains only the recorded life inside the window, open spans up to now', () => {
    const pod = {
      podId: 'p',
      podName: 'q',
      pricePerHour: 1,
      spans: [
        { fromMs: T0 - 2 * H, toMs: T0 + H },
        { fromMs: T0 + 2 * H, toMs: null },
      ],
    };
    expect(explainedUsd(pod, T0, T0 + 3 * H)).toBeCloseTo(2, 9);
  });

  it.each<[number, number, number, number]>([
    // explained, price, spans, allowed: granularity per span + max(floor, 10 %)
    [0, 0.49, 1, 0.49 * (2 / 60) + 0.05],
    [10, 1, 2, 10 + 4 / 60 + 1],
  ])('allowance for %s USD at %s USD/h over %s spans', (explained, price, spans, allowed) => {
    expect(allowedUsd(explained, price, spans)).toBeCloseTo(allowed, 9);
  });
});
