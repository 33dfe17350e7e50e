import { OPERATOR, WAKER, startGateway, type GatewayHarness } from '../testing/gateway-harness';
import { SECRETS, leakedSecrets } from '../testing/secret-scan';

const basic = (password: string) => ({
  Authorization: `Basic ${Buffer.from(`anyone:${password}`).toString('base64')}`,
});

async function queueIsEmpty(gw: GatewayHarness): Promise<boolean> {
  const counts = await gw.wakeQueue.getJobCounts();
  return Object.values(counts).every((n) => n === 0);
}

describe('operator gate on, with tokens', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway('gate-on');
  });
  afterAll(async () => {
    await gw.close();
  });
  beforeEach(() => gw.resetRunPod());

  it.each([
    ['start without a token', 'POST', '/api/pods/qwen/start', {}],
    ['start with a wrong token', 'POST', '/api/pods/qwen/start', { 'X-Rig-Operator-Token': 'nope' }],
    ['stop without a token', 'POST', '/api/pods/qwen/stop', {}],
    ['stop with the wake-only token', 'POST', '/api/pods/qwen/stop', WAKER],
    ['start of an unknown pod without a token (401 before 404)', 'POST', '/api/pods/llama/start', {}],
    [
      'stop of an unknown pod with a wrong token (401 before 404)',
      'POST',
      '/api/pods/llama/stop',
      { 'X-Rig-Operator-Token': 'x' },
    ],
  ])('%s is a 401 problem with no RunPod call and no queue write', async (_rule, method, path, headers) => {
    const answer = await gw.request(method, path, headers);
    expect(answer.status).toBe(401);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.body).toMatchObject({
      status: 401,
      title: 'Unauthorized',
      type: expect.any(String),
      detail: expect.any(String),
    });
    expect(gw.fake.calls).toEqual([]);
    expect(await queueIsEmpty(gw)).toBe(true);
  });

  it('with the operator token, stop reaches the volume lookup', async () => {
    const answer = await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
    expect(answer.status).toBe(404);
    expect(answer.body.title).toBe('No pod on the volume');
    expect(gw.fake.calls).toEqual(['list']);
  });

  it('with a valid token, an unknown name is 404 before any RunPod call or queue write', async () => {
    const start = await gw.request('POST', '/api/pods/llama/start', OPERATOR);
    const stop = await gw.request('POST', '/api/pods/llama/stop', OPERATOR);
    expect([start.status, stop.status]).toEqual([404, 404]);
    expect(gw.fake.calls).toEqual([]);
    expect(await queueIsEmpty(gw)).toBe(true);
  });

  it('GET routes stay readable without a token', async () => {
    expect((await gw.request('GET', '/api/pods/qwen')).status).toBe(200);
    expect((await gw.request('GET', '/api/pods')).status).toBe(200);
    expect((await gw.request('GET', '/api/pods/qwen/history')).status).toBe(200);
  });

  it.each([
    ['no credentials', {}, 401],
    ['a wrong header token', { 'X-Rig-Operator-Token': 'nope' }, 401],
    ['the wake-only token', WAKER, 401],
    ['basic auth with a wrong password', basic('nope'), 401],
    ['the operator token header', OPERATOR, 200],
    ['basic auth with the operator token as password', basic(SECRETS.RIG_OPERATOR_TOKEN), 200],
  ])('Bull Board with %s answers %p', async (_rule, headers, status) => {
    const answer = await gw.request('GET', '/admin/queues', headers);
    expect(answer.status).toBe(status);
    if (status === 401) {
      expect(answer.headers.get('www-authenticate')).toBe('Basic realm="podwarden"');
      expect(answer.contentType).toContain('application/problem+json');
    }
  });

  it('Bull Board API lists the wake and idle-tick queues to an operator and protects its API routes too', async () => {
    const open = await gw.request('GET', '/admin/queues/api/queues', OPERATOR);
    expect(open.status).toBe(200);
    expect((open.body.queues as Array<{ name: string }>).map((q) => q.name)).toEqual(['wake', 'idle-tick']);
    expect((await gw.request('GET', '/admin/queues/api/queues')).status).toBe(401);
  });

  it('unknown routes and unexpected input are problem+json too', async () => {
    const answer = await gw.request('GET', '/no/such/route');
    expect(answer.status).toBe(404);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ type: 'about:blank', title: 'Not Found', status: 404 });
  });

  it('serves health, Prometheus metrics and the OpenAPI document', async () => {
    expect((await gw.request('GET', '/health/live')).status).toBe(200);
    expect((await gw.request('GET', '/health/ready')).body).toMatchObject({ status: 'ok' });
    const metrics = await gw.request('GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.contentType).toContain('text/plain');
    expect(metrics.text).toContain(
      'podwarden_gateway_http_requests_total{method="GET",route="/api/pods/:name",status="200"}',
    );
    expect(metrics.text).toContain('podwarden_gateway_process_cpu_user_seconds_total');
    const docs = await gw.request('GET', '/docs-json');
    expect(Object.keys(docs.body.paths as object)).toEqual(
      expect.arrayContaining([
        '/api/pods',
        '/api/pods/{name}',
        '/api/pods/{name}/history',
        '/api/pods/{name}/start',
        '/api/pods/{name}/stop',
      ]),
    );
    expect((await gw.request('GET', '/docs')).status).toBe(200);
  });

  it('never leaks a secret in the answers and log lines it produces', async () => {
    const produced = await gw.produced(async () => {
      await gw.request('POST', '/api/pods/qwen/start', {});
      await gw.request('POST', '/api/pods/qwen/stop', WAKER);
      await gw.request('GET', '/admin/queues', basic('nope'));
      await gw.request('GET', '/admin/queues', basic(SECRETS.RIG_OPERATOR_TOKEN));
      await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
    });
    expect(produced.answers.map((answer) => answer.status)).toEqual([401, 401, 401, 200, 404]);
    expect(leakedSecrets(produced)).toEqual([]);
  });
});

describe('operator gate on, without RIG_OPERATOR_TOKEN', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway('gate-no-token', { env: { RIG_OPERATOR_TOKEN: undefined } });
  });
  afterAll(async () => {
    await gw.close();
  });

  it.each([
    ['start, even with the wake token', '/api/pods/qwen/start', WAKER],
    ['stop', '/api/pods/qwen/stop', {}],
  ])('%s fails closed with 503 naming the missing token', async (_rule, path, headers) => {
    const answer = await gw.request('POST', path, headers);
    expect(answer.status).toBe(503);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.body.detail).toContain('RIG_OPERATOR_TOKEN');
    expect(gw.fake.calls).toEqual([]);
    expect(await queueIsEmpty(gw)).toBe(true);
  });

  it('Bull Board fails closed with 503', async () => {
    expect((await gw.request('GET', '/admin/queues')).status).toBe(503);
  });

  it('GET stays readable', async () => {
    expect((await gw.request('GET', '/api/pods/qwen')).status).toBe(200);
  });

  it('warns at start-up that the write routes are closed', () => {
    expect(gw.logs.messages('warn').filter((m) => m.includes('RIG_OPERATOR_TOKEN is not set'))).toHaveLength(
      1,
    );
  });
});

describe('operator gate off', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway('gate-off', { env: { OPERATOR_GATE: 'off', RIG_OPERATOR_TOKEN: undefined } });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('write routes and Bull Board are open, and the start-up log says so at Warning', async () => {
    const stop = await gw.request('POST', '/api/pods/qwen/stop');
    expect(stop.status).toBe(404);
    expect(stop.body.title).toBe('No pod on the volume');
    expect((await gw.request('GET', '/admin/queues')).status).toBe(200);
    expect(gw.logs.messages('warn').filter((m) => m.includes('OPERATOR_GATE=off'))).toHaveLength(1);
  });
});
