import { MockAgent, type MockCallHistoryLog } from 'undici';
import { RunPodInsights } from './insights-client';
import {
  API_ORIGIN,
  BASE_URL,
  CONTROL_PLANE_HEADERS,
  FAKE_KEY,
  JSON_HEADERS,
  PROBLEM_HEADERS,
} from './testing/mock-runpod-harness';

const WINDOW = { startTime: '2026-12-01T00:00:00.000Z', endTime: '2026-12-01T12:00:00.000Z' };
const BOUNDS = { tail: 50, maxLines: 3, maxBytes: 64 * 1024, maxMs: 2_000, quietMs: 200 };

function setUp(apiKey: string | null = FAKE_KEY) {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  const insights = new RunPodInsights({
    apiKey,
    baseUrl: BASE_URL,
    dispatcher: agent,
    timeouts: { headersMs: 500, bodyMs: 500 },
  });
  return {
    agent,
    insights,
    api: agent.get(API_ORIGIN),
    calls: (): MockCallHistoryLog[] => agent.getCallHistory()?.calls() ?? [],
  };
}

const sse = (...events: object[]) =>
  events.map((e) => `id: ${(e as { ts?: string }).ts ?? ''}\ndata: ${JSON.stringify(e)}\n\n`).join('');

describe('RunPodInsights', () => {
  let mock: ReturnType<typeof setUp>;
  beforeEach(() => {
    mock = setUp();
  });
  afterEach(async () => {
    mock.agent.assertNoPendingInterceptors();
    await mock.agent.close();
  });

  describe('podBilling (GET /billing/pods)', () => {
    const path = `/v2/billing/pods?bucketSize=hour&startTime=${encodeURIComponent(WINDOW.startTime)}&endTime=${encodeURIComponent(WINDOW.endTime)}&podId=p1`;

    it('asks for one pod by the hour in the window, with the bearer only in the Authorization header', async () => {
      mock.api
        .intercept({ method: 'GET', path })
        .reply(200, { records: [], metadata: {} }, { headers: JSON_HEADERS });
      expect(await mock.insights.podBilling('p1', WINDOW)).toEqual({ kind: 'read', buckets: [] });
      const [call] = mock.calls();
      expect(call.fullUrl).toBe(`${API_ORIGIN}${path}`);
      expect(call.headers).toEqual(CONTROL_PLANE_HEADERS);
    });

    it.each<[string, unknown, unknown]>([
      [
        'records with podId, time and totalAmount',
        {
          records: [
            {
              podId: 'p1',
              time: '2026-12-01T10:00:00Z',
              gpuAmount: 0.4,
              cpuAmount: 0,
              diskAmount: 0.09,
              totalAmount: 0.49,
            },
          ],
        },
        { kind: 'read', buckets: [{ podId: 'p1', startMs: Date.parse('2026-12-01T10:00:00Z'), usd: 0.49 }] },
      ],
      [
        'the older bare-array shape (amount, time), attributed to the pod asked for',
        [{ amount: 0.2, time: '2026-12-01T11:00:00Z' }],
        { kind: 'read', buckets: [{ podId: 'p1', startMs: Date.parse('2026-12-01T11:00:00Z'), usd: 0.2 }] },
      ],
      [
        'a record without an amount makes the read unreadable (never dropped)',
        { records: [{ podId: 'p1', time: '2026-12-01T10:00:00Z' }] },
        { kind: 'unreadable', reason: 'billing record without podId, time or amount' },
      ],
      [
        'records that are not an array',
        { records: 'none' },
        { kind: 'unreadable', reason: 'billing records are not an array' },
      ],
    ])('%s', async (_case, body, expected) => {
      mock.api.intercept({ method: 'GET', path }).reply(200, body as object, { headers: JSON_HEADERS });
      expect(await mock.insights.podBilling('p1', WINDOW)).toEqual(expected);
    });

    it('an error answer is unreadable, never "nothing billed"', async () => {
      mock.api.intercept({ method: 'GET', path }).reply(503, { title: 'busy' }, { headers: PROBLEM_HEADERS });
      expect(await mock.insights.podBilling('p1', WINDOW)).toEqual({
        kind: 'unreadable',
        reason: 'http 503',
      });
    });

    it('unconfigured: no request', async () => {
      const bare = setUp(null);
      expect(await bare.insights.podBilling('p1', WINDOW)).toEqual({
        kind: 'unreadable',
        reason: 'unconfigured',
      });
      expect(bare.calls()).toHaveLength(0);
      await bare.agent.close();
    });
  });

  describe('accountBilling (GET /billing)', () => {
    it('reads storage per day from the aggregate', async () => {
      const path = `/v2/billing?bucketSize=day&startTime=${encodeURIComponent(WINDOW.startTime)}&endTime=${encodeURIComponent(WINDOW.endTime)}`;
      mock.api.intercept({ method: 'GET', path }).reply(
        200,
        {
          records: [{ time: '2026-12-01T00:00:00Z', totalAmount: 1.5, podAmount: 1.03, storageAmount: 0.47 }],
        },
        { headers: JSON_HEADERS },
      );
      expect(await mock.insights.accountBilling(WINDOW)).toEqual({
        kind: 'read',
        buckets: [{ startMs: Date.parse('2026-12-01T00:00:00Z'), totalUsd: 1.5, storageUsd: 0.47 }],
      });
    });
  });

  describe('podLogs (GET /pods/{id}/logs, server-sent events)', () => {
    const path = '/v2/pods/p%2F1/logs?tail=50';
    const line = (source: string, text: string, ts = '2026-12-01T10:00:00.000Z') => ({
      source,
      line: text,
      ts,
    });

    it('reads the events of both sources, path-escaped, asking for a tail', async () => {
      mock.api
        .intercept({ method: 'GET', path })
        .reply(
          200,
          sse(line('system', 'start container a: begin'), line('container', 'INFO Loading weights')),
          {
            headers: { 'content-type': 'text/event-stream' },
          },
        );
      const read = await mock.insights.podLogs('p/1', BOUNDS);
      expect(read).toEqual({
        kind: 'read',
        stoppedBy: 'end',
        lines: [
          { source: 'system', line: 'start container a: begin', ts: Date.parse('2026-12-01T10:00:00.000Z') },
          { source: 'container', line: 'INFO Loading weights', ts: Date.parse('2026-12-01T10:00:00.000Z') },
        ],
      });
      const [call] = mock.calls();
      expect(call.headers).toEqual({ authorization: `Bearer ${FAKE_KEY}`, accept: 'text/event-stream' });
    });

    it('stops at the line bound and keeps the newest lines', async () => {
      const many = Array.from({ length: 10 }, (_, i) => line('container', `line ${i}`));
      mock.api
        .intercept({ method: 'GET', path })
        .reply(200, sse(...many), { headers: { 'content-type': 'text/event-stream' } });
      const read = await mock.insights.podLogs('p/1', BOUNDS);
      expect(read.kind === 'read' && read.stoppedBy).toBe('lines');
      expect(read.kind === 'read' && read.lines.length).toBeLessThanOrEqual(BOUNDS.maxLines);
    });

    it('stops at the byte bound', async () => {
      const big = Array.from({ length: 4 }, (_, i) => line('container', `${i} ${'x'.repeat(400)}`));
      mock.api
        .intercept({ method: 'GET', path })
        .reply(200, sse(...big), { headers: { 'content-type': 'text/event-stream' } });
      const read = await mock.insights.podLogs('p/1', { ...BOUNDS, maxLines: 100, maxBytes: 100 });
      expect(read.kind === 'read' && read.stoppedBy).toBe('bytes');
    });

    it('skips events it cannot read and a comment line', async () => {
      const body = `: keep-alive\n\ndata: not json\n\n${sse(line('chat', 'unknown source'), line('system', 'ok'))}`;
      mock.api
        .intercept({ method: 'GET', path })
        .reply(200, body, { headers: { 'content-type': 'text/event-stream' } });
      const read = await mock.insights.podLogs('p/1', BOUNDS);
      expect(read.kind === 'read' && read.lines.map((l) => l.line)).toEqual(['ok']);
    });

    it('never carries our key further when a pod prints it', async () => {
      mock.api.intercept({ method: 'GET', path }).reply(200, sse(line('container', `key is ${FAKE_KEY}`)), {
        headers: { 'content-type': 'text/event-stream' },
      });
      const read = await mock.insights.podLogs('p/1', BOUNDS);
      expect(JSON.stringify(read)).not.toContain(FAKE_KEY);
    });

    it.each<[number, unknown]>([
      [404, { kind: 'not-found' }],
      [500, { kind: 'unreadable', reason: 'http 500' }],
    ])('HTTP %s', async (status, expected) => {
      mock.api.intercept({ method: 'GET', path }).reply(status, { title: 'x' }, { headers: PROBLEM_HEADERS });
      expect(await mock.insights.podLogs('p/1', BOUNDS)).toEqual(expected);
    });
  });
});
