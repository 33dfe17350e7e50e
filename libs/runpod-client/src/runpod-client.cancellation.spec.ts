import { JSON_HEADERS, mockRunPod, pod, type MockRunPod } from './testing/mock-runpod-harness';
import type { RunPodClient } from './runpod-client';

const REQUEST = { name: 'n', templateId: 't', dataCenterId: 'EU-RO-1', gpuId: 'g', volumeId: 'v' };
// Far beyond the 10 ms abort: on a loaded machine a short delay let the answer win the race.
const RESPONSE_DELAY_MS = 2_000;

type Call = (client: RunPodClient, signal: AbortSignal) => Promise<unknown>;

const CALLS: [string, 'api' | 'proxy', 'GET' | 'POST' | 'DELETE', string, Call][] = [
  [
    'getCatalog',
    'api',
    'GET',
    '/v2/catalog/gpus?include=AVAILABILITY&product=POD',
    (c, s) => c.getCatalog(s),
  ],
  ['observePod', 'api', 'GET', '/v2/pods/abc123', (c, s) => c.observePod('abc123', s)],
  ['listPods', 'api', 'GET', '/v2/pods', (c, s) => c.listPods(s)],
  ['lookupByVolume', 'api', 'GET', '/v2/pods', (c, s) => c.lookupByVolume('v', s)],
  ['createPod', 'api', 'POST', '/v2/pods', (c, s) => c.createPod(REQUEST, s)],
  ['startPod', 'api', 'POST', '/v2/pods/abc123/action', (c, s) => c.startPod('abc123', s)],
  ['stopPod', 'api', 'POST', '/v2/pods/abc123/action', (c, s) => c.stopPod('abc123', s)],
  ['terminatePod', 'api', 'DELETE', '/v2/pods/abc123', (c, s) => c.terminatePod('abc123', s)],
  ['getActivity', 'proxy', 'GET', '/proxy/abc123-8000/metrics', (c, s) => c.getActivity('abc123', 8000, s)],
];

describe.each(CALLS)('RunPodClient.%s cancellation', (_name, origin, method, path, call) => {
  let mock: MockRunPod;
  beforeEach(() => {
    mock = mockRunPod();
  });
  afterEach(() => mock.finish());

  it('rejects with an AbortError, the one error that escapes, when the caller aborts mid-request', async () => {
    mock[origin]
      .intercept({ method, path })
      .reply(200, pod(), { headers: JSON_HEADERS })
      .delay(RESPONSE_DELAY_MS);
    const controller = new AbortController();
    const pending = call(mock.client, controller.signal);
    setTimeout(() => controller.abort(), 10);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects without sending anything when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(call(mock.client, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(mock.calls()).toHaveLength(0);
  });

  it("passes the caller's own abort reason through", async () => {
    const reason = new Error('shutting down');
    await expect(call(mock.client, AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});
