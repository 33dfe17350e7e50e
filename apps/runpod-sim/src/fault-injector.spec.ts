import { ControlPlaneCall } from './call-log';
import { PendingFault } from './fault-injector';
import { Problem, SHORT_TIMINGS, SimHarness, VALID_CREATE_BODY, WirePod } from './testing/sim-harness';

describe('fault injection (tests and demos only)', () => {
  let h: SimHarness;

  beforeEach(async () => {
    h = await SimHarness.start({ timings: SHORT_TIMINGS });
  });
  afterEach(() => h.close());

  const fault = async (body: Record<string, unknown>): Promise<void> => {
    const result = await h.admin('POST', '/faults', body);
    if (result.status !== 201) throw new Error(`fault refused: ${result.text}`);
  };

  it('status: answers the status with a Retry-After in delta seconds, and nothing happens', async () => {
    await fault({ route: 'create', kind: 'status', status: 429, retryAfter: 7 });
    const result = await h.api('POST', '/pods', VALID_CREATE_BODY);
    expect(result.status).toBe(429);
    expect(result.headers.get('retry-after')).toBe('7');
    expect(result.headers.get('content-type')).toBe('application/problem+json');
    expect(await h.listIds()).toEqual([]);
  });

  it('status: a Retry-After HTTP date and a custom body are passed through', async () => {
    const date = 'Mon, 30 Nov 2026 10:00:30 GMT';
    await fault({
      route: 'create',
      kind: 'status',
      status: 503,
      retryAfter: date,
      body: { title: 'Busy', status: 503, detail: 'x' },
    });
    const result = await h.api('POST', '/pods', VALID_CREATE_BODY);
    expect(result.status).toBe(503);
    expect(result.headers.get('retry-after')).toBe(date);
    expect(result.json).toEqual({ title: 'Busy', status: 503, detail: 'x' });
  });

  it('delay: waits the given real milliseconds, then answers normally', async () => {
    await fault({ route: 'list', kind: 'delay', delayMs: 150 });
    const started = Date.now();
    const result = await h.api('GET', '/pods');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(result.status).toBe(200);
    expect(result.json).toEqual([]);
  });

  it('delay: a create that outlasts the client still places its pod', async () => {
    await fault({ route: 'create', kind: 'delay', delayMs: 200 });
    const controller = new AbortController();
    const aborted = fetch(`${h.sim.baseUrl}/pods`, {
      method: 'POST',
      body: JSON.stringify(VALID_CREATE_BODY),
      signal: controller.signal,
    }).then(
      () => 'answered',
      (error: { name?: string }) => error.name,
    );
    // Abort once the create is inside the simulator (it took the delay fault), not after a guessed time.
    await until(
      async () => ((await h.admin('GET', '/faults')).json as { faults: unknown[] }).faults.length === 0,
    );
    controller.abort();
    expect(await aborted).toBe('AbortError');
    // The simulator records a call once it has answered it: after the delay, with the pod placed.
    await until(async () => (await h.admin('GET', '/calls?method=POST')).text.includes('"path":"/pods"'));
    expect(await h.listIds()).toHaveLength(1);
  });

  it('malformed: a create takes effect but its 2xx body is not parseable JSON', async () => {
    await fault({ route: 'create', kind: 'malformed' });
    const result = await h.api('POST', '/pods', VALID_CREATE_BODY);
    expect(result.status).toBe(201);
    expect(result.json).toBeUndefined();
    expect(await h.listIds()).toHaveLength(1);
  });

  it('malformed: the list answers 200 with a truncated body', async () => {
    await h.createPod();
    await fault({ route: 'list', kind: 'malformed' });
    const result = await h.api('GET', '/pods');
    expect(result.status).toBe(200);
    expect(result.json).toBeUndefined();
  });

  it('bare-404: observe answers a text/html 404, not problem JSON', async () => {
    const pod = await h.createPod();
    await fault({ route: 'observe', kind: 'bare-404' });
    const result = await h.api('GET', `/pods/${pod.id}`);
    expect(result.status).toBe(404);
    expect(result.headers.get('content-type')).toMatch(/^text\/html/);
    expect(result.json).toBeUndefined();
  });

  it('after-effect: the create places the pod, then answers 5xx', async () => {
    await fault({ route: 'create', kind: 'after-effect', status: 502 });
    const result = await h.api('POST', '/pods', VALID_CREATE_BODY);
    expect(result.status).toBe(502);
    expect(await h.listIds()).toHaveLength(1);
  });

  it('after-effect: a stop is applied even though the answer is 500', async () => {
    const pod = await h.createPod();
    await fault({ route: 'action', kind: 'after-effect' });
    expect((await h.api('POST', `/pods/${pod.id}/action`, { action: 'stop' })).status).toBe(500);
    expect((await h.observe(pod.id)).status).toBe('EXITED');
  });

  it('ignore: a stop is answered 200 and the pod keeps running', async () => {
    const pod = await h.createPod();
    const before = (await h.observe(pod.id)).status;
    await fault({ route: 'action', podId: pod.id, kind: 'ignore' });
    expect((await h.api('POST', `/pods/${pod.id}/action`, { action: 'stop' })).status).toBe(200);
    expect((await h.observe(pod.id)).status).toBe(before);
    expect(before).not.toBe('EXITED');
    // Spent: the next stop takes effect.
    expect((await h.api('POST', `/pods/${pod.id}/action`, { action: 'stop' })).status).toBe(200);
    expect((await h.observe(pod.id)).status).toBe('EXITED');
  });

  it('after-effect with listLagMs: the create places the pod, answers 5xx, and the list shows it only later', async () => {
    await fault({ route: 'create', kind: 'after-effect', status: 503, listLagMs: 300 });
    const result = await h.api('POST', '/pods', VALID_CREATE_BODY);
    expect(result.status).toBe(503);
    expect(await h.listIds()).toEqual([]);
    h.clock.advance(299);
    expect(await h.listIds()).toEqual([]);
    h.clock.advance(1);
    expect(await h.listIds()).toHaveLength(1);
  });

  it('no-volume: the create answers 201, but the pod is placed without the network volume', async () => {
    await fault({ route: 'create', kind: 'no-volume' });
    const result = await h.api('POST', '/pods', VALID_CREATE_BODY);
    expect(result.status).toBe(201);
    const pod = await h.observe((result.json as WirePod & { id: string }).id);
    expect(pod.mounts).toEqual({ network: [] });
    expect(pod.gpu.id).toBe('NVIDIA RTX A6000');
  });

  it('other-gpu: the create answers 201, but the pod is placed on the named GPU at its price', async () => {
    await fault({ route: 'create', kind: 'other-gpu', gpuId: 'NVIDIA L40S' });
    const result = await h.api('POST', '/pods', VALID_CREATE_BODY);
    expect(result.status).toBe(201);
    const pod = result.json as WirePod;
    expect(pod.gpu.id).toBe('NVIDIA L40S');
    expect(pod.mounts.network).toEqual([{ volumeId: 'vol-eu-ro-1', path: '/workspace' }]);
  });

  it('other-gpu without a gpuId: the first other GPU with a secure price', async () => {
    await fault({ route: 'create', kind: 'other-gpu' });
    const result = await h.api('POST', '/pods', VALID_CREATE_BODY);
    expect((result.json as WirePod).gpu.id).not.toBe('NVIDIA RTX A6000');
  });

  it('late-answer: the pod is listed before the create is answered', async () => {
    await fault({ route: 'create', kind: 'late-answer', delayMs: 400 });
    const answered = h.api('POST', '/pods', VALID_CREATE_BODY);
    await until(async () => (await h.listIds()).length === 1);
    expect((await h.admin('GET', '/calls?method=POST')).text).not.toContain('"path":"/pods"');
    expect((await answered).status).toBe(201);
  });

  it('no-id: the create answers 201 without an id, and the pod exists anyway', async () => {
    await fault({ route: 'create', kind: 'no-id' });
    const result = await h.api('POST', '/pods', VALID_CREATE_BODY);
    expect(result.status).toBe(201);
    const body = result.json as WirePod;
    expect(body.id).toBeUndefined();
    expect(body.status).toBe('PROVISIONING');
    expect(await h.listIds()).toHaveLength(1);
  });

  it('unreadable: the list answers 500', async () => {
    await h.createPod();
    await fault({ route: 'list', kind: 'unreadable' });
    const result = await h.api('GET', '/pods');
    expect(result.status).toBe(500);
    expect((result.json as Problem).status).toBe(500);
  });

  it('catalog and terminate routes take faults too', async () => {
    const pod = await h.createPod();
    await fault({ route: 'catalog', kind: 'status', status: 503 });
    await fault({ route: 'terminate', kind: 'status', status: 409 });
    expect((await h.api('GET', '/catalog/gpus?include=AVAILABILITY&product=POD')).status).toBe(503);
    expect((await h.api('DELETE', `/pods/${pod.id}`)).status).toBe(409);
    expect(await h.listIds()).toEqual([pod.id]);
  });

  it('a fault applies to the next N matching requests, then expires', async () => {
    await fault({ route: 'list', kind: 'unreadable', times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await h.api('GET', '/pods')).status);
    expect(statuses).toEqual([500, 500, 200]);
    expect((await h.admin('GET', '/faults')).json).toEqual({ faults: [] });
  });

  it('a pod-scoped fault only matches requests for that pod', async () => {
    const a = await h.createPod();
    const b = await h.createPod();
    await fault({ route: 'observe', podId: b.id, kind: 'status', status: 500 });
    expect((await h.api('GET', `/pods/${a.id}`)).status).toBe(200);
    expect((await h.api('GET', `/pods/${b.id}`)).status).toBe(500);
  });

  it('metrics faults reshape the proxy scrape: status, bare-404 and the HTML bot check', async () => {
    const pod = await h.createPod();
    h.clock.advance(200);
    await fault({ route: 'metrics', podId: pod.id, kind: 'status', status: 502 });
    await fault({ route: 'metrics', kind: 'bare-404' });
    await fault({ route: 'metrics', kind: 'malformed' });
    expect((await h.proxy(pod.id, '/metrics')).status).toBe(502);
    expect((await h.proxy(pod.id, '/metrics')).status).toBe(404);
    const html = await h.proxy(pod.id, '/metrics');
    expect(html.status).toBe(200);
    expect(html.text).not.toContain('vllm:');
    expect((await h.proxy(pod.id, '/metrics')).text).toContain('vllm:num_requests_running');
  });

  it('huge-body: /metrics says idle, then streams the requested bytes of comments', async () => {
    const pod = await h.createPod();
    h.clock.advance(200);
    await fault({ route: 'metrics', podId: pod.id, kind: 'huge-body', bytes: 300_000 });
    const huge = await h.proxy(pod.id, '/metrics');
    expect(huge.status).toBe(200);
    expect(huge.text.length).toBeGreaterThanOrEqual(300_000);
    expect(huge.text).toContain('vllm:num_requests_running{engine="0",model_name="m"} 0.0');
    expect((await h.proxy(pod.id, '/metrics')).text.length).toBeLessThan(300_000);
  });

  it('slow-drip: /metrics answers 200 and trickles a line per interval until the duration ends', async () => {
    const pod = await h.createPod();
    h.clock.advance(200);
    await fault({ route: 'metrics', kind: 'slow-drip', intervalMs: 5, durationMs: 50 });
    const drip = await h.proxy(pod.id, '/metrics');
    expect(drip.status).toBe(200);
    expect(drip.text.split('# drip\n').length - 1).toBe(10);
  });

  it('forMs: a fault matches every request until its real time is up, then expires', async () => {
    await fault({ route: 'list', kind: 'unreadable', forMs: 200 });
    for (let i = 0; i < 5; i++) expect((await h.api('GET', '/pods')).status).toBe(500);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await h.api('GET', '/pods')).status).toBe(200);
    expect((await h.admin('GET', '/faults')).json).toEqual({ faults: [] });
  });

  it('GET lists pending faults with their remaining uses; DELETE clears them', async () => {
    await fault({ route: 'create', kind: 'no-id', times: 3 });
    const listed = (await h.admin('GET', '/faults')).json as { faults: PendingFault[] };
    expect(listed.faults).toEqual([
      {
        id: expect.any(Number) as unknown,
        route: 'create',
        podId: null,
        remaining: 3,
        forMs: null,
        spec: { kind: 'no-id' },
      },
    ]);
    await h.admin('DELETE', '/faults');
    expect((await h.admin('GET', '/faults')).json).toEqual({ faults: [] });
    expect((await h.api('POST', '/pods', VALID_CREATE_BODY)).json).toHaveProperty('id');
  });

  it('the call log names the fault that shaped an answer', async () => {
    await fault({ route: 'list', kind: 'unreadable' });
    await h.api('GET', '/pods');
    const calls = ((await h.admin('GET', '/calls')).json as { calls: ControlPlaneCall[] }).calls;
    expect(calls.map((c) => c.fault)).toEqual(['unreadable']);
  });

  it.each([
    ['an unknown route', { route: 'pods', kind: 'unreadable' }],
    ['an unknown kind', { route: 'list', kind: 'explode' }],
    ['after-effect on a read', { route: 'list', kind: 'after-effect' }],
    ['no-id on the catalog', { route: 'catalog', kind: 'no-id' }],
    ['ignore on a create', { route: 'create', kind: 'ignore' }],
    ['a podId on the list route', { route: 'list', podId: 'abc', kind: 'unreadable' }],
    ['a status without a status', { route: 'create', kind: 'status' }],
    ['zero times', { route: 'list', kind: 'unreadable', times: 0 }],
    ['a typo in a field', { route: 'list', kind: 'unreadable', time: 2 }],
    ['a negative delay', { route: 'list', kind: 'delay', delayMs: -1 }],
    ['huge-body on the list', { route: 'list', kind: 'huge-body' }],
    ['slow-drip on a create', { route: 'create', kind: 'slow-drip' }],
    ['a zero forMs', { route: 'list', kind: 'unreadable', forMs: 0 }],
  ])('%s is refused with 400', async (_name, body) => {
    const result = await h.admin('POST', '/faults', body);
    expect(result.status).toBe(400);
    expect((await h.admin('GET', '/faults')).json).toEqual({ faults: [] });
  });
});

/** Polls until the check holds (requests reach the server asynchronously); a generous deadline, never a window. */
async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
