import {
  HttpResult,
  parseExposition,
  Sample,
  sampleValue,
  SHORT_TIMINGS,
  SimHarness,
} from './testing/sim-harness';

const MODEL = 'Qwen/Qwen2.5-32B-Instruct-AWQ';

describe('pod proxy: vLLM emulation', () => {
  let h: SimHarness;
  let podId: string;

  const start = async (options: Parameters<typeof SimHarness.start>[0] = {}): Promise<void> => {
    h = await SimHarness.start({ timings: SHORT_TIMINGS, ...options });
    podId = (await h.createPod()).id;
    h.clock.advance(120); // serving
  };
  afterEach(() => h.close());

  const scrape = async (): Promise<Sample[]> => {
    const result = await h.proxy(podId, '/metrics');
    if (result.status !== 200) throw new Error(`scrape answered ${result.status}`);
    return parseExposition(result.text).samples;
  };
  const gauges = async (): Promise<{ running: number; waiting: number }> => {
    const samples = await scrape();
    return {
      running: sampleValue(samples, 'vllm:num_requests_running'),
      waiting: sampleValue(samples, 'vllm:num_requests_waiting'),
    };
  };
  const chat = (
    body: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ): Promise<HttpResult> =>
    h.proxy(podId, '/v1/chat/completions', {
      method: 'POST',
      body: { model: MODEL, messages: [{ role: 'user', content: 'Hello, how are you today?' }], ...body },
      headers,
    });
  /** Polls until the condition holds (requests reach the server asynchronously). */
  const eventually = async (check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`condition never held within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  it('/metrics is Prometheus text: HELP and TYPE for every family, the vLLM gauges and counters with model_name', async () => {
    await start();
    const result = await h.proxy(podId, '/metrics');
    expect(result.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const { samples, types } = parseExposition(result.text);
    expect(types.get('vllm:num_requests_running')).toBe('gauge');
    expect(types.get('vllm:num_requests_waiting')).toBe('gauge');
    expect(types.get('vllm:request_success_total')).toBe('counter');
    expect(types.get('vllm:generation_tokens_total')).toBe('counter');
    expect(types.get('vllm:prompt_tokens_total')).toBe('counter');
    expect(types.get('python_gc_objects_collected_total')).toBe('counter');
    for (const [family] of types) expect(result.text).toContain(`# HELP ${family} `);
    const vllm = samples.filter((s) => s.name.startsWith('vllm:'));
    expect(vllm.length).toBeGreaterThan(5);
    for (const sample of vllm) expect(sample.labels.model_name).toBe(MODEL);
    expect(sampleValue(samples, 'vllm:request_success_total', { finished_reason: 'stop' })).toBe(0);
    expect(samples.some((s) => s.name === 'vllm:request_success_created')).toBe(true);
    expect(samples.some((s) => s.name === 'http_requests_total')).toBe(true);
  });

  it('without createdSamples there are no _created samples', async () => {
    await start({ vllm: { createdSamples: false } });
    expect((await scrape()).some((s) => s.name.endsWith('_created'))).toBe(false);
  });

  it('a chat occupies the running gauge for its duration, then advances the counters and answers a completion', async () => {
    await start();
    const pending = chat({ sim_duration_ms: 1000 });
    await eventually(async () => (await gauges()).running === 1);
    expect(await gauges()).toEqual({ running: 1, waiting: 0 });

    h.clock.advance(1000);
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      object: 'chat.completion',
      model: MODEL,
      choices: [{ index: 0, message: { role: 'assistant' }, finish_reason: 'stop' }],
      usage: { completion_tokens: 32 },
    });
    const samples = await scrape();
    expect(sampleValue(samples, 'vllm:num_requests_running')).toBe(0);
    expect(sampleValue(samples, 'vllm:request_success_total', { finished_reason: 'stop' })).toBe(1);
    expect(sampleValue(samples, 'vllm:generation_tokens_total')).toBe(32);
    expect(sampleValue(samples, 'vllm:prompt_tokens_total')).toBeGreaterThan(0);
  });

  it('requests beyond maxConcurrency wait, then run as slots free up', async () => {
    await start({ vllm: { maxConcurrency: 2 } });
    const answers = [
      chat({ sim_duration_ms: 100 }),
      chat({ sim_duration_ms: 100 }),
      chat({ sim_duration_ms: 100 }),
    ];
    await eventually(async () => (await gauges()).waiting === 1);
    expect(await gauges()).toEqual({ running: 2, waiting: 1 });
    h.clock.advance(100);
    expect(await gauges()).toEqual({ running: 1, waiting: 0 });
    h.clock.advance(100);
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual([200, 200, 200]);
    expect(sampleValue(await scrape(), 'vllm:request_success_total', { finished_reason: 'stop' })).toBe(3);
  });

  it('the duration can come from the x-sim-duration-ms header, else the configured chatMs', async () => {
    await start();
    const byHeader = chat({}, { 'x-sim-duration-ms': '500' });
    const byDefault = chat();
    await eventually(async () => (await gauges()).running === 2);
    h.clock.advance(100); // chatMs
    expect((await byDefault).status).toBe(200);
    expect((await gauges()).running).toBe(1);
    h.clock.advance(400);
    expect((await byHeader).status).toBe(200);
  });

  it('a max_tokens below the standard completion finishes with reason length', async () => {
    await start();
    const answer = await chat({ max_tokens: 5, sim_duration_ms: 0 });
    expect(answer.json).toMatchObject({
      choices: [{ finish_reason: 'length' }],
      usage: { completion_tokens: 5 },
    });
    const samples = await scrape();
    expect(sampleValue(samples, 'vllm:request_success_total', { finished_reason: 'length' })).toBe(1);
    expect(sampleValue(samples, 'vllm:generation_tokens_total')).toBe(5);
  });

  it('a chat in flight when the pod is stopped gets a 502', async () => {
    await start();
    const pending = chat({ sim_duration_ms: 1000 });
    await eventually(async () => (await gauges()).running === 1);
    await h.api('POST', `/pods/${podId}/action`, { action: 'stop' });
    h.clock.advance(1000);
    expect((await pending).status).toBe(502);
  });

  it.each([
    ['no messages', { messages: [] }],
    ['a negative duration', { sim_duration_ms: -5 }],
  ])('a chat with %s is a 400', async (_name, body) => {
    await start();
    expect((await chat(body)).status).toBe(400);
  });

  it('never-ready: 502 forever, on /metrics and chat alike', async () => {
    await start();
    await h.admin('POST', `/pods/${podId}/vllm`, { behaviour: 'never-ready' });
    h.clock.advance(3_600_000);
    expect((await h.proxy(podId, '/metrics')).status).toBe(502);
    expect((await chat({ sim_duration_ms: 0 })).status).toBe(502);
  });

  it('dead: 502 from now on after serving, and a restart brings a healthy vLLM back', async () => {
    await start();
    expect((await h.proxy(podId, '/metrics')).status).toBe(200);
    await h.admin('POST', `/pods/${podId}/vllm`, { behaviour: 'dead' });
    expect((await h.proxy(podId, '/metrics')).status).toBe(502);
    await h.api('POST', `/pods/${podId}/action`, { action: 'stop' });
    await h.api('POST', `/pods/${podId}/action`, { action: 'start' });
    h.clock.advance(90);
    expect((await h.proxy(podId, '/metrics')).status).toBe(200);
  });

  it('phantom-busy: the running gauge is stuck at 1 with nothing in flight', async () => {
    await start();
    await h.admin('POST', `/pods/${podId}/vllm`, { behaviour: 'phantom-busy' });
    h.clock.advance(3_600_000);
    expect(await gauges()).toEqual({ running: 1, waiting: 0 });
  });

  it('flapping: scrapes alternate 502 and 200', async () => {
    await start();
    await h.admin('POST', `/pods/${podId}/vllm`, { behaviour: 'flapping' });
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await h.proxy(podId, '/metrics')).status);
    expect(statuses).toEqual([502, 200, 502, 200]);
  });

  it('no-counters: an old vLLM exposes the gauges only', async () => {
    await start();
    await h.admin('POST', `/pods/${podId}/vllm`, { behaviour: 'no-counters' });
    const samples = await scrape();
    expect(sampleValue(samples, 'vllm:num_requests_running')).toBe(0);
    expect(sampleValue(samples, 'vllm:num_requests_waiting')).toBe(0);
    expect(samples.filter((s) => s.name.startsWith('vllm:') && s.name.endsWith('_total'))).toEqual([]);
  });

  it.each([
    ['a port that is not the pod port', { port: 8001 }, 'pod'],
    ['an unknown pod', {}, 'nosuchpod'],
  ] as const)('%s is a 404', async (_name, init, which) => {
    await start();
    expect((await h.proxy(which === 'pod' ? podId : which, '/metrics', init)).status).toBe(404);
  });

  it('with proxyBrowserUaOnly a non-browser User-Agent is refused 403, a browser one served', async () => {
    await start({ wire: { proxyBrowserUaOnly: true } });
    expect((await h.proxy(podId, '/metrics', { headers: { 'user-agent': 'node' } })).status).toBe(403);
    const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36' };
    expect((await h.proxy(podId, '/metrics', { headers: browser })).status).toBe(200);
  });

  it('a model list runs no model: the gauges and work counters stay put, only the HTTP counter moves (as in vLLM)', async () => {
    await start();
    for (let i = 0; i < 3; i += 1) expect((await h.proxy(podId, '/v1/models')).status).toBe(200);
    const samples = await scrape();
    expect(sampleValue(samples, 'vllm:num_requests_running')).toBe(0);
    expect(sampleValue(samples, 'vllm:num_requests_waiting')).toBe(0);
    expect(sampleValue(samples, 'vllm:request_success_total', { finished_reason: 'stop' })).toBe(0);
    expect(sampleValue(samples, 'vllm:prompt_tokens_total')).toBe(0);
    expect(sampleValue(samples, 'vllm:generation_tokens_total')).toBe(0);
    expect(sampleValue(samples, 'http_requests_total', { handler: '/v1/models' })).toBe(3);
  });

  it('serves /health and /v1/models, and answers vLLM-style 404 JSON elsewhere', async () => {
    await start();
    expect((await h.proxy(podId, '/health')).status).toBe(200);
    expect((await h.proxy(podId, '/v1/models')).json).toMatchObject({ data: [{ id: MODEL }] });
    const missing = await h.proxy(podId, '/nope');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ detail: 'Not Found' });
  });
});
