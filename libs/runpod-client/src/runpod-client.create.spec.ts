import {
  API_ORIGIN,
  CONTROL_PLANE_JSON_HEADERS,
  FAST_TIMEOUTS,
  JSON_HEADERS,
  PROBLEM_HEADERS,
  SLOWER_THAN_TIMEOUT_MS,
  mockRunPod,
  onlyCall,
  pod,
  type MockRunPod,
} from './testing/mock-runpod-harness';

const REQUEST = {
  name: 'podwarden-qwen-20261130T101500Z',
  templateId: 'tpl-vllm',
  dataCenterId: 'EU-RO-1',
  gpuId: 'NVIDIA A100 80GB PCIe',
  volumeId: 'vol-eu-ro-1',
};

const EXPECTED_BODY =
  '{"name":"podwarden-qwen-20261130T101500Z","templateId":"tpl-vllm","cloud":"SECURE",' +
  '"dataCenterIds":["EU-RO-1"],"gpu":{"id":"NVIDIA A100 80GB PCIe","count":1},' +
  '"mounts":{"network":[{"volumeId":"vol-eu-ro-1","path":"/workspace"}]}}';

describe('RunPodClient.createPod', () => {
  let mock: MockRunPod;
  beforeEach(() => {
    mock = mockRunPod({ timeouts: FAST_TIMEOUTS, now: () => Date.UTC(2026, 10, 30, 12, 0, 0) });
  });
  afterEach(() => mock.finish());

  const answer = (status: number, body: unknown, headers: Record<string, string> = JSON_HEADERS) =>
    mock.api
      .intercept({ method: 'POST', path: '/v2/pods', body: EXPECTED_BODY })
      .reply(status, body as object, { headers });

  it('posts exactly the documented body: secure cloud, one GPU, our volume at /workspace, no image', async () => {
    answer(201, pod({ id: 'new1' }));
    await mock.client.createPod(REQUEST);
    const call = onlyCall(mock);
    expect(call).toEqual({
      method: 'POST',
      url: `${API_ORIGIN}/v2/pods`,
      headers: CONTROL_PLANE_JSON_HEADERS,
      body: EXPECTED_BODY,
    });
    expect(JSON.parse(call.body as string)).toEqual({
      name: REQUEST.name,
      templateId: 'tpl-vllm',
      cloud: 'SECURE',
      dataCenterIds: ['EU-RO-1'],
      gpu: { id: 'NVIDIA A100 80GB PCIe', count: 1 },
      mounts: { network: [{ volumeId: 'vol-eu-ro-1', path: '/workspace' }] },
    });
  });

  it.each([201, 200, 202])('reads the pod id from a %i body', async (status) => {
    answer(status, pod({ id: 'new1' }));
    expect(await mock.client.createPod(REQUEST)).toEqual({
      httpStatus: status,
      podId: 'new1',
      retryAfterSeconds: null,
      detail: null,
    });
  });

  it.each([
    ['no id', { name: 'x' }],
    ['a blank id', { id: '  ' }],
    ['a numeric id', { id: 7 }],
    ['an unparseable body', 'created!'],
    ['an empty body', ''],
  ])('keeps the raw 2xx status but a null pod id for %s', async (_case, body) => {
    answer(201, body);
    expect(await mock.client.createPod(REQUEST)).toEqual({
      httpStatus: 201,
      podId: null,
      retryAfterSeconds: null,
      detail: 'no pod id in the response',
    });
  });

  it.each([
    ['delta seconds on 429', 429, { 'retry-after': '17' }, 17],
    ['delta seconds on 503', 503, { 'retry-after': '5' }, 5],
    [
      'an HTTP date on 429, against the response Date',
      429,
      { 'retry-after': 'Mon, 30 Nov 2026 08:01:30 GMT', date: 'Mon, 30 Nov 2026 08:00:00 GMT' },
      90,
    ],
    [
      'an HTTP date on 503, against now without a Date',
      503,
      { 'retry-after': 'Mon, 30 Nov 2026 12:00:20 GMT' },
      20,
    ],
    ['a date already past', 429, { 'retry-after': 'Mon, 30 Nov 2026 11:00:00 GMT' }, 0],
    ['an unparseable value', 429, { 'retry-after': 'later' }, null],
    ['no header', 429, {}, null],
  ])('resolves Retry-After from %s', async (_case, status, headers, expected) => {
    answer(status, { title: 'Too Many Requests', status }, { ...PROBLEM_HEADERS, ...headers });
    expect(await mock.client.createPod(REQUEST)).toMatchObject({
      httpStatus: status,
      retryAfterSeconds: expected,
    });
  });

  it('ignores Retry-After on statuses other than 429 and 503', async () => {
    answer(500, { title: 'Internal' }, { ...PROBLEM_HEADERS, 'retry-after': '10' });
    expect(await mock.client.createPod(REQUEST)).toMatchObject({ httpStatus: 500, retryAfterSeconds: null });
  });

  it.each([
    [
      400,
      { title: 'Bad Request', status: 400, detail: 'no capacity for that GPU in EU-RO-1' },
      'no capacity for that GPU in EU-RO-1',
    ],
    [402, { title: 'Payment Required', status: 402 }, 'Payment Required'],
    [403, { title: 'Forbidden', detail: '   ' }, 'Forbidden'],
    [422, { status: 422 }, null],
    [500, '<html>oops</html>', null],
  ])('passes http %i through untouched with the problem detail', async (status, body, detail) => {
    answer(status, body, PROBLEM_HEADERS);
    expect(await mock.client.createPod(REQUEST)).toEqual({
      httpStatus: status,
      podId: null,
      retryAfterSeconds: null,
      detail,
    });
  });

  it('cuts a long problem detail to a log-friendly length', async () => {
    answer(400, { detail: 'x'.repeat(5000) }, PROBLEM_HEADERS);
    const { detail } = await mock.client.createPod(REQUEST);
    expect(detail).toHaveLength(300);
    expect(detail?.endsWith('…')).toBe(true);
  });

  it('never reads a pod id from an error body', async () => {
    answer(409, { id: 'not-a-created-pod', title: 'Conflict' }, PROBLEM_HEADERS);
    expect(await mock.client.createPod(REQUEST)).toMatchObject({ httpStatus: 409, podId: null });
  });

  it('returns status 0 on a transport error: the create may have placed a pod, so it is never a clean refusal', async () => {
    mock.api.intercept({ method: 'POST', path: '/v2/pods' }).replyWithError(new Error('socket hang up'));
    expect(await mock.client.createPod(REQUEST)).toEqual({
      httpStatus: 0,
      podId: null,
      retryAfterSeconds: null,
      detail: 'transport error: socket hang up',
    });
  });

  it('returns status 0 on a timeout', async () => {
    mock.api
      .intercept({ method: 'POST', path: '/v2/pods' })
      .reply(201, pod({ id: 'late' }))
      .delay(SLOWER_THAN_TIMEOUT_MS);
    expect(await mock.client.createPod(REQUEST)).toEqual({
      httpStatus: 0,
      podId: null,
      retryAfterSeconds: null,
      detail: 'timeout',
    });
  });
});
