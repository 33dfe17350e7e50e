import { parseUsageTrace, usageAsTrace } from './usage-trace';
import type { Boot, UsageRecord } from './usage-record';

const MIN = 60_000;
const T0 = Date.parse('2026-11-02T10:00:00Z');
const AT = '2026-11-02T10:00:00.000Z';

const valid = { bootMinutes: 3, pricePerHour: 0.79, requests: [{ at: AT, seconds: 12 }] };

describe('parseUsageTrace refuses a malformed trace with the first defect', () => {
  it.each<[string, unknown, string]>([
    ['null', null, 'a trace is a JSON object'],
    ['an array', [valid], 'a trace is a JSON object'],
    ['a string', 'trace', 'a trace is a JSON object'],
    ['a number', 3, 'a trace is a JSON object'],
    ['undefined', undefined, 'a trace is a JSON object'],
    ['no bootMinutes', { ...valid, bootMinutes: undefined }, 'bootMinutes must be a positive number'],
    ['bootMinutes as text', { ...valid, bootMinutes: '3' }, 'bootMinutes must be a positive number'],
    ['bootMinutes 0', { ...valid, bootMinutes: 0 }, 'bootMinutes must be a positive number'],
    ['negative bootMinutes', { ...valid, bootMinutes: -1 }, 'bootMinutes must be a positive number'],
    ['bootMinutes NaN', { ...valid, bootMinutes: NaN }, 'bootMinutes must be a positive number'],
    ['bootMinutes Infinity', { ...valid, bootMinutes: Infinity }, 'bootMinutes must be a positive number'],
    // bootMinutes is judged before the price.
    [
      'both constants bad',
      { ...valid, bootMinutes: 0, pricePerHour: 0 },
      'bootMinutes must be a positive number',
    ],
    ['no pricePerHour', { ...valid, pricePerHour: null }, 'pricePerHour must be a positive number'],
    ['pricePerHour 0', { ...valid, pricePerHour: 0 }, 'pricePerHour must be a positive number'],
    ['negative pricePerHour', { ...valid, pricePerHour: -0.5 }, 'pricePerHour must be a positive number'],
    ['pricePerHour Infinity', { ...valid, pricePerHour: Infinity }, 'pricePerHour must be a positive number'],
    ['pricePerHour NaN', { ...valid, pricePerHour: NaN }, 'pricePerHour must be a positive number'],
    ['no requests', { ...valid, requests: undefined }, 'requests must be an array'],
    ['requests as an object', { ...valid, requests: { 0: valid.requests[0] } }, 'requests must be an array'],
    ['a null request', { ...valid, requests: [null] }, 'requests[0] must be an object'],
    ['an array request', { ...valid, requests: [[AT, 1]] }, 'requests[0] must be an object'],
    ['a text request', { ...valid, requests: [AT] }, 'requests[0] must be an object'],
    // The index names the offending request, after good ones.
    ['a bad second request', { ...valid, requests: [valid.requests[0], 5] }, 'requests[1] must be an object'],
    ['no at', { ...valid, requests: [{ seconds: 1 }] }, 'requests[0].at must be an ISO 8601 time'],
    // Date.parse would read "0" as a date: a number is refused before it is parsed.
    [
      'a numeric at',
      { ...valid, requests: [{ at: 0, seconds: 1 }] },
      'requests[0].at must be an ISO 8601 time',
    ],
    [
      'an empty at',
      { ...valid, requests: [{ at: '', seconds: 1 }] },
      'requests[0].at must be an ISO 8601 time',
    ],
    [
      'an unparsable at',
      { ...valid, requests: [{ at: 'noon', seconds: 1 }] },
      'requests[0].at must be an ISO 8601 time',
    ],
    // at is judged before seconds.
    [
      'at and seconds bad',
      { ...valid, requests: [{ at: 'noon', seconds: -1 }] },
      'requests[0].at must be an ISO 8601 time',
    ],
    [
      'no seconds',
      { ...valid, requests: [{ at: AT }] },
      'requests[0].seconds must be a number of seconds >= 0',
    ],
    [
      'seconds as text',
      { ...valid, requests: [{ at: AT, seconds: '5' }] },
      'requests[0].seconds must be a number of seconds >= 0',
    ],
    [
      'negative seconds',
      { ...valid, requests: [{ at: AT, seconds: -0.001 }] },
      'requests[0].seconds must be a number of seconds >= 0',
    ],
    [
      'NaN seconds',
      { ...valid, requests: [{ at: AT, seconds: NaN }] },
      'requests[0].seconds must be a number of seconds >= 0',
    ],
    [
      'infinite seconds',
      { ...valid, requests: [{ at: AT, seconds: Infinity }] },
      'requests[0].seconds must be a number of seconds >= 0',
    ],
    [
      'bad seconds on the third request',
      { ...valid, requests: [valid.requests[0], valid.requests[0], { at: AT, seconds: -1 }] },
      'requests[2].seconds must be a number of seconds >= 0',
    ],
  ])('%s', (_name, document, reason) => {
    expect(parseUsageTrace(document)).toEqual({ kind: 'invalid', reason });
  });
});

describe('parseUsageTrace accepts a well-formed trace', () => {
  it.each<[string, unknown, unknown]>([
    ['one request', valid, valid],
    ['no requests', { ...valid, requests: [] }, { ...valid, requests: [] }],
    [
      'fractional constants',
      { ...valid, bootMinutes: 0.01, pricePerHour: 0.001 },
      { ...valid, bootMinutes: 0.01, pricePerHour: 0.001 },
    ],
    [
      // A request of no length is a request; other fields are dropped, order is kept.
      'zero-second requests, extra fields dropped',
      {
        bootMinutes: 2,
        pricePerHour: 1,
        note: 'x',
        requests: [
          { at: '2026-11-02T11:00:00Z', seconds: 0, model: 'qwen' },
          { at: AT, seconds: 1.5 },
        ],
      },
      {
        bootMinutes: 2,
        pricePerHour: 1,
        requests: [
          { at: '2026-11-02T11:00:00Z', seconds: 0 },
          { at: AT, seconds: 1.5 },
        ],
      },
    ],
  ])('%s', (_name, document, trace) => {
    expect(parseUsageTrace(document)).toEqual({ kind: 'parsed', trace });
  });
});

describe('usageAsTrace', () => {
  const boot = (wakeAt: number, bootMinutes: number, pricePerHour: number | null): Boot => ({
    wakeAt,
    readyAt: wakeAt + bootMinutes * MIN,
    gpuId: 'g',
    pricePerHour,
    prewake: false,
  });

  it('takes the fallbacks and no requests from an empty record', () => {
    expect(usageAsTrace({ uses: [], boots: [], stops: [] }, 3, 0.79)).toEqual({
      bootMinutes: 3,
      pricePerHour: 0.79,
      requests: [],
    });
  });

  it('takes the measured boot and the latest price over the fallbacks', () => {
    const record: UsageRecord = {
      uses: [],
      boots: [boot(T0, 2, 0.4), boot(T0 + 60 * MIN, 4, 0.6), boot(T0 + 120 * MIN, 5, null)],
      stops: [],
    };
    expect(usageAsTrace(record, 3, 0.79)).toEqual({ bootMinutes: 4, pricePerHour: 0.6, requests: [] });
  });

  it('keeps each fallback apart: a price with no valid boot, or a boot with no price', () => {
    const skewed = { ...boot(T0, 2, 0.4), readyAt: T0 - MIN };
    expect(usageAsTrace({ uses: [], boots: [skewed], stops: [] }, 3, 0.79)).toEqual({
      bootMinutes: 3,
      pricePerHour: 0.4,
      requests: [],
    });
    expect(usageAsTrace({ uses: [], boots: [boot(T0, 2, null)], stops: [] }, 3, 0.79)).toEqual({
      bootMinutes: 2,
      pricePerHour: 0.79,
      requests: [],
    });
  });

  it('turns uses into requests by start, with their length in seconds (never negative)', () => {
    const uses = [
      { start: T0 + 2 * MIN, end: T0 + 2 * MIN + 1500 },
      { start: T0, end: T0 + 30_000 },
      { start: T0 + MIN, end: T0 + MIN },
      { start: T0 + 3 * MIN, end: T0 + 3 * MIN - 1000 },
    ];
    const record: UsageRecord = { uses, boots: [], stops: [] };
    expect(usageAsTrace(record, 3, 0.79).requests).toEqual([
      { at: '2026-11-02T10:00:00.000Z', seconds: 30 },
      { at: '2026-11-02T10:01:00.000Z', seconds: 0 },
      { at: '2026-11-02T10:02:00.000Z', seconds: 1.5 },
      { at: '2026-11-02T10:03:00.000Z', seconds: 0 },
    ]);
    // The record itself is left in its order.
    expect(record.uses[0].start).toBe(T0 + 2 * MIN);
  });

  it('round-trips through parseUsageTrace', () => {
    const record: UsageRecord = {
      uses: [{ start: T0, end: T0 + 5000 }],
      boots: [boot(T0, 2, 0.5)],
      stops: [],
    };
    const trace = usageAsTrace(record, 3, 0.79);
    expect(parseUsageTrace(trace)).toEqual({ kind: 'parsed', trace });
  });
});
