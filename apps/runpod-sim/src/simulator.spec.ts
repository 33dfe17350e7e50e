import { connect } from 'node:net';
import { startSimulator } from './simulator';
import { parseExposition, Problem, sampleValue, send, SimHarness } from './testing/sim-harness';

describe('startSimulator', () => {
  it('port 0 picks a free port and the URLs point at it', async () => {
    const sim = await startSimulator({ port: 0 });
    try {
      expect(sim.port).toBeGreaterThan(0);
      expect(sim.baseUrl).toBe(`http://127.0.0.1:${sim.port}/v2`);
      expect(sim.proxyUrlTemplate).toBe(`http://127.0.0.1:${sim.port}/proxy/{podId}-{port}`);
      expect(sim.adminUrl).toBe(`http://127.0.0.1:${sim.port}/_sim`);
    } finally {
      await sim.close();
    }
  });

  it('a port already in use rejects', async () => {
    const first = await startSimulator({ port: 0 });
    try {
      await expect(startSimulator({ port: first.port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });

  it('invalid options reject with the offending field named', async () => {
    await expect(startSimulator({ port: 0, timings: { chatMs: -1 } })).rejects.toThrow(
      /options.timings.chatMs/,
    );
  });

  it('close() ends held chat responses and delay faults, so nothing keeps the process alive', async () => {
    const h = await SimHarness.start({
      timings: { provisioningMs: 0, startingMs: 0, gpuAttachMs: 0, modelLoadMs: 0 },
    });
    const pod = await h.createPod();
    await h.admin('POST', '/faults', { route: 'list', kind: 'delay', delayMs: 60_000 });
    const held = [
      h.proxy(pod.id, '/v1/chat/completions', {
        method: 'POST',
        body: { messages: [{ role: 'user', content: 'x' }], sim_duration_ms: 60_000 },
      }),
      h.api('GET', '/pods'),
    ].map((request) => request.then((answer) => `answered ${answer.status}`, transportErrorCode));
    // Both requests are inside the simulator: the list took the delay fault, the chat is in flight.
    await until(async () => {
      const faults = (await h.admin('GET', '/faults')).json as { faults: unknown[] };
      const metrics = parseExposition((await h.proxy(pod.id, '/metrics')).text).samples;
      return faults.faults.length === 0 && sampleValue(metrics, 'vllm:num_requests_running') === 1;
    });
    await h.close();
    // Cut off by the server, not refused at connect and not answered.
    expect(await Promise.all(held)).toEqual(['UND_ERR_SOCKET', 'UND_ERR_SOCKET']);
  });
});

/** The code of the transport error behind a failed fetch ('UND_ERR_SOCKET' when the server cut it off). */
function transportErrorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : `no transport code: ${String(error)}`;
}

/** Polls until the check holds (requests reach the server asynchronously); a generous deadline, never a window. */
async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('robustness', () => {
  let h: SimHarness;

  beforeEach(async () => {
    h = await SimHarness.start();
  });
  afterEach(() => h.close());

  it.each([
    ['GET', '/'],
    ['GET', '/pods'],
    ['GET', '/v2/nothing'],
    ['GET', '/v2/pods/abc/stop'],
  ])('%s %s is a 404 problem', async (method, path) => {
    const result = await send(`http://127.0.0.1:${h.sim.port}${path}`, method, undefined, {});
    expect(result.status).toBe(404);
    expect(result.headers.get('content-type')).toBe('application/problem+json');
    expect((result.json as Problem).status).toBe(404);
  });

  it.each([
    ['PUT', '/v2/pods', 405],
    ['PATCH', '/v2/pods/abc', 405],
    ['GET', '/v2/pods/%E0%A4%A', 400],
  ])('%s %s is a %i problem', async (method, path, status) => {
    const result = await send(`http://127.0.0.1:${h.sim.port}${path}`, method, undefined, {});
    expect(result.status).toBe(status);
    expect(result.headers.get('content-type')).toBe('application/problem+json');
  });

  it('a body over 1 MB is refused with 413 (the rest of the body is drained, so the answer arrives), and the simulator keeps serving', async () => {
    const result = await h.api('POST', '/pods', 'x'.repeat(1024 * 1024 + 1));
    expect(result.status).toBe(413);
    expect(result.headers.get('content-type')).toBe('application/problem+json');
    expect(await h.listIds()).toEqual([]);
    expect((await h.api('GET', '/pods')).status).toBe(200);
  });

  it('a malformed HTTP request gets a 400 and the server survives', async () => {
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(h.sim.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('close', () => resolve(data));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect((await h.api('GET', '/pods')).status).toBe(200);
  });

  it('odd but valid JSON bodies never crash a route', async () => {
    for (const body of ['null', '42', '"text"', '[1,2]', '{"gpu":null}', '{"mounts":{"network":"x"}}']) {
      expect((await h.api('POST', '/pods', body)).status).toBe(400);
    }
    expect((await h.api('GET', '/pods')).status).toBe(200);
  });
});

describe('GET /catalog/gpus', () => {
  let h: SimHarness;

  beforeEach(async () => {
    h = await SimHarness.start();
  });
  afterEach(() => h.close());

  interface WireGpu {
    readonly id: string;
    readonly availability?: string;
    readonly dataCenters?: unknown;
    readonly memory?: number | null;
    readonly memoryInGb?: number | null;
  }
  const gpus = async (query: string): Promise<WireGpu[]> =>
    ((await h.api('GET', `/catalog/gpus${query}`)).json as { gpus: WireGpu[] }).gpus;

  it('with include=AVAILABILITY&product=POD carries availability and dataCenters', async () => {
    const all = await gpus('?include=AVAILABILITY&product=POD');
    expect(all.length).toBeGreaterThanOrEqual(20);
    for (const gpu of all) {
      expect(gpu.availability).toMatch(/^(NONE|LOW|MEDIUM|HIGH)$/);
      expect(Array.isArray(gpu.dataCenters)).toBe(true);
    }
  });

  it('without include the availability fields are absent, as on the real API', async () => {
    for (const gpu of await gpus('')) {
      expect(gpu).not.toHaveProperty('availability');
      expect(gpu).not.toHaveProperty('dataCenters');
    }
  });

  it('include without product is a 400 problem', async () => {
    expect((await h.api('GET', '/catalog/gpus?include=AVAILABILITY')).status).toBe(400);
  });

  it('the memoryInGb wire variant renames the VRAM field', async () => {
    await h.admin('PUT', '/config', { wire: { memoryKey: 'memoryInGb' } });
    const [first] = await gpus('?include=AVAILABILITY&product=POD');
    expect(first).not.toHaveProperty('memory');
    expect(first.memoryInGb).toBe(48);
  });

  it('the uptimeInSeconds wire variant renames uptime', async () => {
    await h.admin('PUT', '/config', { wire: { uptimeKey: 'uptimeInSeconds' } });
    await h.admin('POST', '/pods', { id: 'p', status: 'RUNNING' });
    expect((await h.observe('p')).runtime).toMatchObject({ uptimeInSeconds: 1 });
  });
});
