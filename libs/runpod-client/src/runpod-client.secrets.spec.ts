import {
  FAKE_KEY,
  FAST_TIMEOUTS,
  JSON_HEADERS,
  PROBLEM_HEADERS,
  SLOWER_THAN_TIMEOUT_MS,
  mockRunPod,
  pod,
  type MockRunPod,
} from './testing/mock-runpod-harness';

const REQUEST = { name: 'n', templateId: 't', dataCenterId: 'EU-RO-1', gpuId: 'g', volumeId: 'v' };
const ECHO = { title: `bad key ${FAKE_KEY}`, status: 401, detail: `key ${FAKE_KEY} is not valid` };

describe('RunPodClient and the API key', () => {
  let mock: MockRunPod;
  beforeEach(() => {
    mock = mockRunPod({ timeouts: FAST_TIMEOUTS, metricsTimeouts: FAST_TIMEOUTS });
  });
  afterEach(() => mock.finish());

  it('never puts the key in a log line, a returned value or an error, whatever RunPod answers', async () => {
    const api = mock.api;
    api
      .intercept({ method: 'GET', path: '/v2/catalog/gpus?include=AVAILABILITY&product=POD' })
      .reply(401, ECHO, {
        headers: PROBLEM_HEADERS,
      });
    api
      .intercept({ method: 'GET', path: '/v2/pods/p1' })
      .reply(200, pod({ id: FAKE_KEY, status: FAKE_KEY }), {
        headers: JSON_HEADERS,
      });
    api.intercept({ method: 'GET', path: '/v2/pods/p2' }).reply(404, ECHO, { headers: PROBLEM_HEADERS });
    api
      .intercept({ method: 'GET', path: '/v2/pods/p3' })
      .replyWithError(new Error(`refused for ${FAKE_KEY}`));
    api.intercept({ method: 'GET', path: '/v2/pods/p4' }).reply(200, pod()).delay(SLOWER_THAN_TIMEOUT_MS);
    api
      .intercept({ method: 'GET', path: '/v2/pods' })
      .reply(200, [pod({ id: 'listed', name: FAKE_KEY, mounts: { network: [{ volumeId: FAKE_KEY }] } })], {
        headers: JSON_HEADERS,
      });
    api.intercept({ method: 'GET', path: '/v2/pods' }).reply(500, ECHO, { headers: PROBLEM_HEADERS });
    api
      .intercept({ method: 'POST', path: '/v2/pods' })
      .reply(201, { id: FAKE_KEY }, { headers: JSON_HEADERS });
    api.intercept({ method: 'POST', path: '/v2/pods' }).reply(401, ECHO, { headers: PROBLEM_HEADERS });
    api.intercept({ method: 'POST', path: '/v2/pods' }).replyWithError(new Error(`boom ${FAKE_KEY}`));
    api
      .intercept({ method: 'POST', path: '/v2/pods/p1/action' })
      .reply(409, ECHO, { headers: PROBLEM_HEADERS });
    api.intercept({ method: 'POST', path: '/v2/pods/p1/action' }).replyWithError(new Error(`x ${FAKE_KEY}`));
    api.intercept({ method: 'DELETE', path: '/v2/pods/p1' }).reply(401, ECHO, { headers: PROBLEM_HEADERS });
    mock.proxy
      .intercept({ method: 'GET', path: '/proxy/p1-8000/metrics' })
      .replyWithError(new Error(`metrics ${FAKE_KEY}`));
    mock.proxy.intercept({ method: 'GET', path: '/proxy/p1-8000/metrics' }).reply(502, FAKE_KEY);

    const results: unknown[] = [
      await mock.client.getCatalog(),
      await mock.client.observePod('p1'),
      await mock.client.observePod('p2'),
      await mock.client.observePod('p3'),
      await mock.client.observePod('p4'),
      await mock.client.lookupByVolume('vol-1'),
      await mock.client.listPods(),
      await mock.client.createPod(REQUEST),
      await mock.client.createPod(REQUEST),
      await mock.client.createPod(REQUEST),
      await mock.client.startPod('p1'),
      await mock.client.stopPod('p1'),
      await mock.client.terminatePod('p1'),
      await mock.client.getActivity('p1', 8000),
      await mock.client.getActivity('p1', 8000),
    ];

    const everything = JSON.stringify({ results, logs: mock.logs.lines });
    expect(mock.logs.lines.length).toBeGreaterThan(0);
    expect(everything).toContain('[redacted]');
    expect(everything).not.toContain(FAKE_KEY);
    expect(everything).not.toMatch(/bearer|authorization/i);
  });

  it('sends the key only as the Authorization bearer of control-plane calls', async () => {
    mock.api.intercept({ method: 'GET', path: '/v2/pods' }).reply(200, []);
    mock.proxy
      .intercept({ method: 'GET', path: '/proxy/p1-8000/metrics' })
      .reply(200, 'vllm:num_requests_running 0');
    await mock.client.listPods();
    await mock.client.getActivity('p1', 8000);
    const [list, metrics] = mock.calls();
    expect(list.headers).toMatchObject({ authorization: `Bearer ${FAKE_KEY}` });
    expect(list.fullUrl).not.toContain(FAKE_KEY);
    expect(JSON.stringify(metrics)).not.toContain(FAKE_KEY);
  });
});
