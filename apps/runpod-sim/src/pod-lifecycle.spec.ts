import { parseExposition, sampleValue, SHORT_TIMINGS, SimHarness, WirePod } from './testing/sim-harness';

describe('pod lifecycle over REST v2', () => {
  let h: SimHarness;

  beforeEach(async () => {
    h = await SimHarness.start({ timings: SHORT_TIMINGS });
  });
  afterEach(() => h.close());

  it('a created pod goes PROVISIONING → STARTING → RUNNING (runtime null while the GPU attaches) → RUNNING with uptime', async () => {
    const created = await h.createPod();
    expect(created.status).toBe('PROVISIONING');
    expect(created.runtime).toBeNull();

    h.clock.advance(30);
    expect((await h.observe(created.id)).status).toBe('STARTING');

    h.clock.advance(30);
    const attaching = await h.observe(created.id);
    expect(attaching.status).toBe('RUNNING');
    expect(attaching.runtime).toBeNull();

    h.clock.advance(10);
    const running = await h.observe(created.id);
    expect(running.status).toBe('RUNNING');
    expect(running.runtime?.uptime).toBeGreaterThan(0);
    expect(running.runtime?.gpus).toEqual([{ id: 'gpu-0' }]);

    h.clock.advance(5000);
    expect((await h.observe(created.id)).runtime?.uptime).toBe(5);
  });

  it('the proxy answers 404 until RUNNING, 502 while the model loads, then serves /metrics', async () => {
    const pod = await h.createPod();
    expect((await h.proxy(pod.id, '/metrics')).status).toBe(404);
    h.clock.advance(60);
    expect((await h.proxy(pod.id, '/metrics')).status).toBe(502);
    h.clock.advance(59);
    expect((await h.proxy(pod.id, '/metrics')).status).toBe(502);
    h.clock.advance(1);
    expect((await h.proxy(pod.id, '/metrics')).status).toBe(200);
  });

  it('stop makes the pod EXITED with runtime null and the proxy 404', async () => {
    const pod = await h.createPod();
    h.clock.advance(200);
    const stopped = await h.api('POST', `/pods/${pod.id}/action`, { action: 'stop' });
    expect(stopped.status).toBe(200);
    expect((stopped.json as WirePod).status).toBe('EXITED');
    expect((await h.observe(pod.id)).runtime).toBeNull();
    expect((await h.proxy(pod.id, '/metrics')).status).toBe(404);
  });

  it('start on EXITED keeps the same id and brings up a new vLLM whose counters start from zero', async () => {
    const pod = await h.createPod();
    h.clock.advance(200);
    const chat = h.proxy(pod.id, '/v1/chat/completions', {
      method: 'POST',
      body: { messages: [{ role: 'user', content: 'hi' }], sim_duration_ms: 0 },
    });
    expect((await chat).status).toBe(200);
    const before = parseExposition((await h.proxy(pod.id, '/metrics')).text).samples;
    expect(sampleValue(before, 'vllm:request_success_total', { finished_reason: 'stop' })).toBe(1);

    await h.api('POST', `/pods/${pod.id}/action`, { action: 'stop' });
    const started = await h.api('POST', `/pods/${pod.id}/action`, { action: 'start' });
    expect(started.status).toBe(200);
    expect((started.json as WirePod).id).toBe(pod.id);
    expect((started.json as WirePod).status).toBe('STARTING');

    h.clock.advance(30);
    expect((await h.observe(pod.id)).status).toBe('RUNNING');
    h.clock.advance(60);
    const after = parseExposition((await h.proxy(pod.id, '/metrics')).text).samples;
    expect(sampleValue(after, 'vllm:request_success_total', { finished_reason: 'stop' })).toBe(0);
    expect(sampleValue(after, 'vllm:prompt_tokens_total')).toBe(0);
    expect(await h.listIds()).toEqual([pod.id]);
  });

  it('DELETE answers 204, then the pod is gone: absent from the list and 404 problem on GET', async () => {
    const pod = await h.createPod();
    const deleted = await h.api('DELETE', `/pods/${pod.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(await h.listIds()).toEqual([]);
    const gone = await h.api('GET', `/pods/${pod.id}`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).toBe('application/problem+json');
    expect(gone.json).toEqual({ title: 'Not Found', status: 404, detail: 'pod not found or not accessible' });
  });

  it('with a terminate delay the pod is listed TERMINATED until the delay has passed', async () => {
    await h.admin('PUT', '/config', { timings: { terminateMs: 1000 } });
    const pod = await h.createPod();
    await h.api('DELETE', `/pods/${pod.id}`);
    expect((await h.observe(pod.id)).status).toBe('TERMINATED');
    expect(await h.listIds()).toEqual([pod.id]);
    h.clock.advance(1000);
    expect((await h.api('GET', `/pods/${pod.id}`)).status).toBe(404);
    expect(await h.listIds()).toEqual([]);
  });

  it('start on a RUNNING pod does not apply: 409 problem', async () => {
    const pod = await h.createPod();
    h.clock.advance(200);
    const result = await h.api('POST', `/pods/${pod.id}/action`, { action: 'start' });
    expect(result.status).toBe(409);
    expect(result.headers.get('content-type')).toBe('application/problem+json');
  });

  it('stop on an EXITED pod does not apply: 409 problem', async () => {
    const pod = await h.createPod();
    await h.api('POST', `/pods/${pod.id}/action`, { action: 'stop' });
    const result = await h.api('POST', `/pods/${pod.id}/action`, { action: 'stop' });
    expect(result.status).toBe(409);
    expect(result.headers.get('content-type')).toBe('application/problem+json');
  });

  it.each([
    ['no body', undefined],
    ['an unknown action', { action: 'restart' }],
    ['a body that is not JSON', '{action'],
  ])('an action with %s is a 400 problem', async (_name, body) => {
    const pod = await h.createPod();
    const result = await h.api('POST', `/pods/${pod.id}/action`, body);
    expect(result.status).toBe(400);
    expect(result.headers.get('content-type')).toBe('application/problem+json');
  });

  it.each([
    ['GET', '/pods/nosuchpod', undefined],
    ['POST', '/pods/nosuchpod/action', { action: 'stop' }],
    ['DELETE', '/pods/nosuchpod', undefined],
  ])('%s %s on an unknown pod is a 404 problem', async (method, path, body) => {
    const result = await h.api(method, path, body);
    expect(result.status).toBe(404);
    expect((result.json as { detail: string }).detail).toBe('pod not found or not accessible');
  });

  it.each([
    ['null', null],
    ['empty', {}],
    ['zero-uptime', { uptime: 0, gpus: [], ports: [] }],
  ] as const)('while the GPU attaches, runtime has the %s shape', async (attachRuntime, expected) => {
    await h.admin('PUT', '/config', { wire: { attachRuntime } });
    const pod = await h.createPod();
    h.clock.advance(60);
    const attaching = await h.observe(pod.id);
    expect(attaching.status).toBe('RUNNING');
    expect(attaching.runtime).toEqual(expected);
  });

  it('timings changed later apply to transitions that begin afterwards', async () => {
    const early = await h.createPod();
    await h.admin('PUT', '/config', { timings: { provisioningMs: 1000 } });
    const late = await h.createPod();
    h.clock.advance(60);
    expect((await h.observe(early.id)).status).toBe('RUNNING');
    expect((await h.observe(late.id)).status).toBe('PROVISIONING');
  });
});

describe('pod lifecycle on the real clock', () => {
  it('with short timings a created pod comes to serve /metrics on the wall clock, never before its boot is over', async () => {
    const h = await SimHarness.start({ timings: SHORT_TIMINGS, now: () => Date.now() });
    const bootMs =
      SHORT_TIMINGS.provisioningMs +
      SHORT_TIMINGS.startingMs +
      SHORT_TIMINGS.gpuAttachMs +
      SHORT_TIMINGS.modelLoadMs;
    try {
      const asked = Date.now();
      const pod = await h.createPod();
      // A generous deadline for a busy machine: how fast is a benchmark's question, not this spec's.
      const deadline = Date.now() + 10_000;
      const statuses: number[] = [];
      while (statuses.at(-1) !== 200 && Date.now() < deadline) {
        statuses.push((await h.proxy(pod.id, '/metrics')).status);
      }
      const servedAfter = Date.now() - asked;

      expect(statuses.at(-1)).toBe(200);
      expect(servedAfter).toBeGreaterThanOrEqual(bootMs);
    } finally {
      await h.close();
    }
  });

  it('the speed factor divides every duration: 60 s of provisioning pass in 1 s of wall time at speed 60', async () => {
    const h = await SimHarness.start({ speed: 60, timings: { ...SHORT_TIMINGS, provisioningMs: 60_000 } });
    try {
      const pod = await h.createPod();
      h.clock.advance(999);
      expect((await h.observe(pod.id)).status).toBe('PROVISIONING');
      h.clock.advance(1);
      expect((await h.observe(pod.id)).status).toBe('STARTING');
    } finally {
      await h.close();
    }
  });
});
