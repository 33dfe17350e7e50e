import { LEVEL } from '@podwarden/testing';
import {
  API_ORIGIN,
  CONTROL_PLANE_HEADERS,
  FAST_TIMEOUTS,
  JSON_HEADERS,
  PROBLEM_HEADERS,
  SLOWER_THAN_TIMEOUT_MS,
  mockRunPod,
  onlyCall,
  pod,
  type MockRunPod,
  fieldsOf,
} from './testing/mock-runpod-harness';

describe('RunPodClient.observePod', () => {
  let mock: MockRunPod;
  beforeEach(() => {
    mock = mockRunPod({ timeouts: FAST_TIMEOUTS });
  });
  afterEach(() => mock.finish());

  const answer = (status: number, body: unknown, headers: Record<string, string> = JSON_HEADERS) =>
    mock.api.intercept({ method: 'GET', path: '/v2/pods/abc123' }).reply(status, body as object, { headers });

  it('sends exactly GET {base}/pods/{id} with the bearer and no body', async () => {
    answer(200, pod());
    await mock.client.observePod('abc123');
    expect(onlyCall(mock)).toEqual({
      method: 'GET',
      url: `${API_ORIGIN}/v2/pods/abc123`,
      headers: CONTROL_PLANE_HEADERS,
      body: undefined,
    });
  });

  it('path-escapes the pod id so it cannot address another resource', async () => {
    mock.api.intercept({ method: 'GET', path: '/v2/pods/a%2F..%2Fb%3Fx%3D1%23f' }).reply(200, pod());
    const observation = await mock.client.observePod('a/../b?x=1#f');
    expect(onlyCall(mock).url).toBe(`${API_ORIGIN}/v2/pods/a%2F..%2Fb%3Fx%3D1%23f`);
    expect(observation).toMatchObject({ kind: 'found', podId: 'a/../b?x=1#f' });
  });

  it.each([
    ['PROVISIONING', 'Provisioning'],
    ['STARTING', 'Starting'],
    ['EXITED', 'Exited'],
    ['ERROR', 'Error'],
    ['TERMINATED', 'Terminated'],
    ['PAUSED', 'Unknown'],
    ['running', 'Unknown'],
    ['', 'Unknown'],
    [42, 'Unknown'],
    [undefined, 'Unknown'],
  ])('maps status %p to %s', async (wire, expected) => {
    answer(200, pod({ status: wire, runtime: null }));
    expect(await mock.client.observePod('abc123')).toMatchObject({ kind: 'found', status: expected });
  });

  it.each([
    ['runtime null', 'Starting', null],
    ['runtime {}', 'Starting', {}],
    ['uptime 0', 'Starting', { uptime: 0, gpus: [{ id: 'g' }] }],
    ['negative uptime', 'Starting', { uptime: -1 }],
    ['uptime as a string', 'Starting', { uptime: '42' }],
    ['runtime as an array', 'Starting', []],
    ['uptime > 0', 'Running', { uptime: 42, gpus: [{ id: 'g' }] }],
    ['uptimeInSeconds > 0 (alias)', 'Running', { uptimeInSeconds: 5, gpus: [{ id: 'g' }] }],
  ])(
    'reads RUNNING with %s as %s: Running needs uptime, the GPU may still be attaching',
    async (_case, expected, runtime) => {
      answer(200, pod({ status: 'RUNNING', runtime }));
      expect(await mock.client.observePod('abc123')).toMatchObject({ kind: 'found', status: expected });
    },
  );

  it('reads RUNNING with no runtime field at all as Starting', async () => {
    const { runtime: _runtime, ...withoutRuntime } = pod();
    answer(200, withoutRuntime);
    expect(await mock.client.observePod('abc123')).toMatchObject({ status: 'Starting' });
  });

  it.each([
    [
      'the attached runtime.gpus',
      { runtime: { uptime: 9, gpus: [{ id: 'a' }, { id: 'b' }] }, gpu: { count: 1 } },
      2,
    ],
    [
      'runtime.gpus [] over gpu.count (no GPU attached)',
      { runtime: { uptime: 9, gpus: [] }, gpu: { count: 1 } },
      0,
    ],
    ['gpu.count when runtime is null', { runtime: null, gpu: { count: 1 } }, 1],
    ['gpu.count when runtime has no gpus array', { runtime: { uptime: 9 }, gpu: { count: 2 } }, 2],
    ['0 when neither is present', { runtime: null, gpu: undefined }, 0],
    ['0 when gpu.count is not a number', { runtime: null, gpu: { count: '1' } }, 0],
  ])('counts GPUs from %s', async (_case, overrides, expected) => {
    answer(200, pod(overrides));
    expect(await mock.client.observePod('abc123')).toMatchObject({ kind: 'found', gpuCount: expected });
  });

  it('returns the whole found observation for a serving pod', async () => {
    answer(200, pod());
    expect(await mock.client.observePod('abc123')).toEqual({
      kind: 'found',
      podId: 'abc123',
      status: 'Running',
      gpuCount: 1,
      realised: {
        volumeIds: ['vol-eu-ro-1'],
        dataCenterId: 'EU-RO-1',
        gpuId: 'NVIDIA A100 80GB PCIe',
        costPerHr: 1.59,
      },
    });
  });

  it('reports a pod placed without a volume, datacenter, GPU or price as exactly that', async () => {
    answer(200, pod({ mounts: undefined, dataCenterId: undefined, gpu: undefined, costPerHr: undefined }));
    const observed = await mock.client.observePod('abc123');
    expect(observed.kind === 'found' && observed.realised).toEqual({
      volumeIds: [],
      dataCenterId: null,
      gpuId: null,
      costPerHr: null,
    });
  });

  it.each([
    ['an unparseable body', 'not json{', JSON_HEADERS],
    ['a JSON array', '[]', JSON_HEADERS],
    ['an empty body', '', {}],
  ])('reads a 2xx with %s as found + Unknown with 0 GPUs', async (_case, body, headers) => {
    answer(200, body, headers);
    expect(await mock.client.observePod('abc123')).toEqual({
      kind: 'found',
      podId: 'abc123',
      status: 'Unknown',
      gpuCount: 0,
    });
  });

  it.each([
    [
      'application/problem+json',
      PROBLEM_HEADERS,
      { title: 'Not Found', status: 404, detail: 'pod not found' },
    ],
    [
      'application/problem+json; charset=utf-8',
      { 'content-type': 'application/problem+json; charset=utf-8' },
      {},
    ],
    ['application/json with title/status', JSON_HEADERS, { title: 'Not Found', status: 404 }],
    ['application/json with only a title', JSON_HEADERS, { title: 'Not Found' }],
  ])('is not-found only for RunPod problem details (%s)', async (_case, headers, body) => {
    answer(404, body, headers);
    expect(await mock.client.observePod('abc123')).toEqual({ kind: 'not-found', podId: 'abc123' });
  });

  it.each([
    ['a bare 404', '', {}],
    ['an HTML 404 page', '<html><body>404 Not Found</body></html>', { 'content-type': 'text/html' }],
    ['a JSON 404 without problem fields', { error: 'nope' }, JSON_HEADERS],
    ['a problem content type with a non-JSON body', 'Not Found', PROBLEM_HEADERS],
    ['a JSON body without a content type', { title: 'Not Found', status: 404 }, {}],
  ])('is unreadable, never not-found, for %s', async (_case, body, headers) => {
    answer(404, body, headers);
    expect(await mock.client.observePod('abc123')).toEqual({
      kind: 'unreadable',
      podId: 'abc123',
      reason: 'http 404 without problem details',
    });
  });

  it.each([401, 403, 409, 429, 500, 502, 503])('is unreadable on http %i', async (status) => {
    answer(status, { title: 'x', status }, PROBLEM_HEADERS);
    expect(await mock.client.observePod('abc123')).toEqual({
      kind: 'unreadable',
      podId: 'abc123',
      reason: `http ${status}`,
    });
  });

  it('is unreadable on a transport error', async () => {
    mock.api
      .intercept({ method: 'GET', path: '/v2/pods/abc123' })
      .replyWithError(new Error('socket hang up'));
    expect(await mock.client.observePod('abc123')).toEqual({
      kind: 'unreadable',
      podId: 'abc123',
      reason: 'transport error: socket hang up',
    });
  });

  it('is unreadable on a timeout', async () => {
    mock.api
      .intercept({ method: 'GET', path: '/v2/pods/abc123' })
      .reply(200, pod())
      .delay(SLOWER_THAN_TIMEOUT_MS);
    expect(await mock.client.observePod('abc123')).toEqual({
      kind: 'unreadable',
      podId: 'abc123',
      reason: 'timeout',
    });
  });

  it('logs a refusal at warn with its problem detail and never the headers', async () => {
    answer(500, { title: 'Internal', detail: 'database down' }, PROBLEM_HEADERS);
    await mock.client.observePod('abc123');
    const refusals = mock.logs.find('runpod call refused');
    expect(refusals.map((line) => line.level)).toEqual([LEVEL.warn]);
    expect(fieldsOf(refusals[0])).toEqual({
      op: 'observe',
      method: 'GET',
      path: '/pods/abc123',
      httpStatus: 500,
      detail: 'database down',
    });
    expect(JSON.stringify(mock.logs.lines)).not.toMatch(/authorization|bearer/i);
  });
});
