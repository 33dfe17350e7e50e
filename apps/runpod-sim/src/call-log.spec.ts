import { ControlPlaneCall, ProxyStats } from './call-log';
import { Problem, SHORT_TIMINGS, SimHarness, VALID_CREATE_BODY } from './testing/sim-harness';

const KEY = 'rp_sim_secret_key_123';

describe('bearer auth on the control plane', () => {
  let h: SimHarness;

  beforeEach(async () => {
    h = await SimHarness.start({ apiKey: KEY, timings: SHORT_TIMINGS });
  });
  afterEach(() => h.close());

  it.each([
    ['no Authorization header', {}],
    ['a wrong key', { authorization: 'Bearer not-the-key' }],
    ['the key without the Bearer scheme', { authorization: KEY }],
    ['a key that only shares a prefix', { authorization: `Bearer ${KEY}x` }],
  ])('%s → 401 problem before anything happens', async (_name, headers) => {
    const result = await h.api('POST', '/pods', VALID_CREATE_BODY, headers);
    expect(result.status).toBe(401);
    expect(result.headers.get('content-type')).toBe('application/problem+json');
    expect((result.json as Problem).status).toBe(401);
    expect(await h.listIds()).toEqual([]);
  });

  it('the right key is accepted, and the scheme is case-insensitive', async () => {
    expect((await h.api('GET', '/pods')).status).toBe(200);
    expect((await h.api('GET', '/pods', undefined, { authorization: `bearer ${KEY}` })).status).toBe(200);
  });

  it('a 401 consumes no pending fault', async () => {
    await h.admin('POST', '/faults', { route: 'list', kind: 'unreadable' });
    expect((await h.api('GET', '/pods', undefined, {})).status).toBe(401);
    expect((await h.api('GET', '/pods')).status).toBe(500);
  });

  it('the pod proxy never requires the key', async () => {
    const pod = await h.createPod();
    h.clock.advance(200);
    expect((await h.proxy(pod.id, '/metrics')).status).toBe(200);
  });
});

describe('call log', () => {
  let h: SimHarness;

  beforeEach(async () => {
    h = await SimHarness.start({ apiKey: KEY, timings: SHORT_TIMINGS });
  });
  afterEach(() => h.close());

  const calls = async (query = ''): Promise<ControlPlaneCall[]> =>
    ((await h.admin('GET', `/calls${query}`)).json as { calls: ControlPlaneCall[] }).calls;

  it('records method, path below /v2, query, parsed body, status and whether the caller was authorized', async () => {
    await h.api('GET', '/catalog/gpus?include=AVAILABILITY&product=POD');
    await h.api('POST', '/pods', VALID_CREATE_BODY);
    await h.api('GET', '/pods', undefined, { authorization: 'Bearer wrong' });
    const log = await calls();
    expect(log.map((c) => [c.method, c.path, c.status, c.authorized, c.bearerPresent])).toEqual([
      ['GET', '/catalog/gpus', 200, true, true],
      ['POST', '/pods', 201, true, true],
      ['GET', '/pods', 401, false, true],
    ]);
    expect(log[0].query).toEqual({ include: 'AVAILABILITY', product: 'POD' });
    expect(log[1].body).toEqual(VALID_CREATE_BODY);
    expect(log[1].at).toBe('2026-11-30T10:00:00.000Z');
  });

  it('never contains the API key, whether it was right or wrong', async () => {
    await h.api('GET', '/pods');
    await h.api('GET', '/pods', undefined, { authorization: `Bearer ${KEY}-wrong` });
    const raw = (await h.admin('GET', '/calls')).text;
    expect(raw).not.toContain(KEY);
    const state = (await h.admin('GET', '/state')).text;
    expect(state).not.toContain(KEY);
  });

  it('filters by method and path, so a test can assert exactly one POST /pods', async () => {
    await h.api('GET', '/pods');
    await h.api('POST', '/pods', VALID_CREATE_BODY);
    await h.api('GET', '/pods');
    expect(await calls('?method=POST&path=/pods')).toHaveLength(1);
    expect(await calls('?path=/pods')).toHaveLength(3);
  });

  it('DELETE /_sim/calls clears the control-plane log and the proxy counts', async () => {
    const pod = await h.createPod();
    await h.proxy(pod.id, '/metrics');
    expect((await h.admin('DELETE', '/calls')).status).toBe(200);
    expect(await calls()).toEqual([]);
    expect((await h.admin('GET', '/scrapes')).json).toEqual({ pods: {} });
  });

  it('counts proxy requests per pod, by kind and status, and any that carried an Authorization header', async () => {
    const pod = await h.createPod();
    await h.proxy(pod.id, '/metrics', { headers: { 'user-agent': 'Mozilla/5.0 test' } });
    h.clock.advance(200);
    await h.proxy(pod.id, '/metrics', { headers: { authorization: `Bearer ${KEY}` } });
    await h.proxy(pod.id, '/v1/chat/completions', {
      method: 'POST',
      body: { messages: [{ role: 'user', content: 'x' }], sim_duration_ms: 0 },
    });
    const stats = ((await h.admin('GET', '/scrapes')).json as { pods: Record<string, ProxyStats> }).pods[
      pod.id
    ];
    expect(stats).toMatchObject({
      metrics: 2,
      chat: 1,
      other: 0,
      byStatus: { '404': 1, '200': 2 },
      withAuthorization: 1,
    });
    expect(await calls('?path=/pods')).toHaveLength(1);
  });
});
