import {
  FAKE_KEY,
  FAST_TIMEOUTS,
  JSON_HEADERS,
  SLOWER_THAN_TIMEOUT_MS,
  mockRunPod,
  pod,
  type MockRunPod,
} from './testing/mock-runpod-harness';
import type { RunPodExchange } from './client-options';
import { RunPodClient } from './runpod-client';

/** The metrics hook: one report per request made, by route and status, never a URL, id or key. */
describe('RunPodClient onExchange', () => {
  let mock: MockRunPod;
  let seen: RunPodExchange[];
  beforeEach(() => {
    seen = [];
    mock = mockRunPod({
      timeouts: FAST_TIMEOUTS,
      metricsTimeouts: FAST_TIMEOUTS,
      onExchange: (exchange) => seen.push(exchange),
    });
  });
  afterEach(() => mock.finish());

  it('reports each control-plane call by its route and HTTP status', async () => {
    mock.api.intercept({ method: 'GET', path: '/v2/pods' }).reply(200, [pod()], { headers: JSON_HEADERS });
    mock.api.intercept({ method: 'GET', path: '/v2/pods/abc123' }).reply(404, { title: 'gone' });
    mock.api.intercept({ method: 'POST', path: '/v2/pods/abc123/action' }).reply(429, {});
    mock.api.intercept({ method: 'DELETE', path: '/v2/pods/abc123' }).reply(204, '');
    mock.api.intercept({ method: 'POST', path: '/v2/pods' }).reply(201, pod(), { headers: JSON_HEADERS });

    await mock.client.listPods();
    await mock.client.observePod('abc123');
    await mock.client.startPod('abc123');
    await mock.client.terminatePod('abc123');
    await mock.client.createPod({ name: 'n', templateId: 't', dataCenterId: 'd', gpuId: 'g', volumeId: 'v' });

    expect(seen).toEqual([
      { route: 'list', status: '200' },
      { route: 'observe', status: '404' },
      { route: 'start', status: '429' },
      { route: 'terminate', status: '204' },
      { route: 'create', status: '201' },
    ]);
    expect(JSON.stringify(seen)).not.toContain(FAKE_KEY);
  });

  it('reports a call nothing answered as "error" and one past its budget as "timeout"', async () => {
    mock.api.intercept({ method: 'GET', path: '/v2/pods' }).replyWithError(new Error('socket hang up'));
    mock.api
      .intercept({ method: 'POST', path: '/v2/pods/abc123/action' })
      .reply(200, pod(), { headers: JSON_HEADERS })
      .delay(SLOWER_THAN_TIMEOUT_MS);

    await mock.client.listPods();
    await mock.client.stopPod('abc123');

    expect(seen).toEqual([
      { route: 'list', status: 'error' },
      { route: 'stop', status: 'timeout' },
    ]);
  });

  it('reports the vLLM scrape as the "metrics" route', async () => {
    mock.proxy.intercept({ method: 'GET', path: '/proxy/abc123-8000/metrics' }).reply(502, 'loading');
    await mock.client.getActivity('abc123', 8000);
    expect(seen).toEqual([{ route: 'metrics', status: '502' }]);
  });

  it('a hook that throws does not change the answer', async () => {
    const throwing = mockRunPod({
      onExchange: () => {
        throw new Error('metrics broken');
      },
    });
    throwing.api
      .intercept({ method: 'GET', path: '/v2/pods' })
      .reply(200, [pod()], { headers: JSON_HEADERS });
    const list = await throwing.client.listPods();
    await throwing.finish();
    expect(list.kind).toBe('listed');
  });

  it('reports nothing while unconfigured (no request is made)', async () => {
    const reports: RunPodExchange[] = [];
    const client = new RunPodClient({
      apiKey: null,
      baseUrl: 'http://runpod.test/v2',
      proxyUrlTemplate: 'http://proxy.test/{podId}-{port}',
      onExchange: (exchange) => reports.push(exchange),
    });
    await client.listPods();
    await client.startPod('abc123');
    await client.close();
    expect(reports).toEqual([]);
  });
});
