import { spawn, type ChildProcess } from 'node:child_process';
import { AppProcess, eventually } from '../support/app-process';
import { freePort } from '../support/free-port';
import { injectFault, resetSim, seedPod, simCalls, simPods, simWrites } from '../support/sim-admin';
import { Stack } from '../support/stack';
import { TEST_API_KEY, TEST_OPERATOR_TOKEN } from '../support/test-env';

/** What operators and callers meet at the edge: stop, the token gate, unknown names, health, Bull Board. */
describe('the gateway surface, end to end', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ name: 'surface', wakers: 1 });
  });
  afterAll(async () => {
    await stack?.stop();
  });
  beforeEach(async () => {
    await resetSim(stack);
  });

  it('stop with two pods on the volume stops both and answers per pod', async () => {
    const a = await seedPod(stack, { status: 'RUNNING' });
    const b = await seedPod(stack, { status: 'RUNNING' });
    const answer = await stack.api('POST', '/api/pods/qwen/stop', { token: 'operator' });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      name: 'qwen',
      ok: true,
      pods: [
        { podId: a, ok: true },
        { podId: b, ok: true },
      ],
      // Accepted, not yet seen EXITED by an idle tick: confirmation comes later.
      stopConfirmed: false,
    });
    expect(await simWrites(stack)).toEqual([`POST /pods/${a}/action stop`, `POST /pods/${b}/action stop`]);
    expect((await simPods(stack)).map((p) => p.status)).toEqual(['EXITED', 'EXITED']);
    const history = await stack.api<{ actions: Array<Record<string, unknown>> }>(
      'GET',
      '/api/pods/qwen/history',
    );
    expect(history.body.actions.slice(0, 2)).toEqual([
      expect.objectContaining({ action: 'Stop', podId: b, trigger: 'manual', ok: true }),
      expect.objectContaining({ action: 'Stop', podId: a, trigger: 'manual', ok: true }),
    ]);
  });

  it('stop: no pod → 404, unreadable list → 503 with nothing stopped', async () => {
    const none = await stack.api('POST', '/api/pods/qwen/stop', { token: 'operator' });
    expect(none.status).toBe(404);
    expect(none.contentType).toContain('application/problem+json');

    await seedPod(stack, { status: 'RUNNING' });
    await stack.simRequest('POST', '/_sim/faults', { route: 'list', times: 1, kind: 'unreadable' });
    const blind = await stack.api('POST', '/api/pods/qwen/stop', { token: 'operator' });
    expect(blind.status).toBe(503);
    expect(await simWrites(stack)).toEqual([]);
  });

  it.each([
    ['no token', undefined],
    ['a wrong token', 'not-the-token'],
  ])(
    'the operator gate: %s → 401 on start and stop, before any queue write or RunPod call',
    async (_label, token) => {
      const startAnswer = await stack.api('POST', '/api/pods/qwen/start', { token });
      const stopAnswer = await stack.api('POST', '/api/pods/qwen/stop', { token });
      // An unknown name is not revealed to an unauthenticated caller either.
      const unknown = await stack.api('POST', '/api/pods/nobody/start', { token });

      expect([startAnswer.status, stopAnswer.status, unknown.status]).toEqual([401, 401, 401]);
      expect(await simCalls(stack)).toEqual([]);
    },
  );

  it('the wake-only token may start but not stop', async () => {
    await seedPod(stack, { status: 'RUNNING' });
    const startAnswer = await stack.api('POST', '/api/pods/qwen/start', { token: 'wake' });
    const stopAnswer = await stack.api('POST', '/api/pods/qwen/stop', { token: 'wake' });

    expect(startAnswer.status).toBe(200);
    expect(stopAnswer.status).toBe(401);
  });

  it('an unknown name is 404 on every route before any RunPod call; names match case-insensitively', async () => {
    const answers = await Promise.all([
      stack.api('POST', '/api/pods/nobody/start', { token: 'operator' }),
      stack.api('POST', '/api/pods/nobody/stop', { token: 'operator' }),
      stack.api('GET', '/api/pods/nobody'),
      stack.api('GET', '/api/pods/nobody/history'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404]);
    expect(await simCalls(stack)).toEqual([]);

    const upper = await stack.api('GET', '/api/pods/QWEN');
    expect(upper.status).toBe(200);
    expect(upper.body).toMatchObject({ name: 'qwen' });
  });

  it('Bull Board refuses without the token and serves with the header or HTTP basic', async () => {
    const bare = await fetch(`${stack.gatewayUrl}/admin/queues`);
    const wrong = await fetch(`${stack.gatewayUrl}/admin/queues`, {
      headers: { 'X-Rig-Operator-Token': 'nope' },
    });
    const header = await fetch(`${stack.gatewayUrl}/admin/queues`, {
      headers: { 'X-Rig-Operator-Token': TEST_OPERATOR_TOKEN },
    });
    const basic = await fetch(`${stack.gatewayUrl}/admin/queues`, {
      headers: { Authorization: `Basic ${Buffer.from(`ops:${TEST_OPERATOR_TOKEN}`).toString('base64')}` },
    });
    const api = await fetch(`${stack.gatewayUrl}/admin/queues/api/queues`);

    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(wrong.status).toBe(401);
    expect(api.status).toBe(401);
    expect(header.status).toBe(200);
    expect(basic.status).toBe(200);
  });

  it('a burst of 20 simultaneous GETs makes one volume list and one observe per pod', async () => {
    const a = await seedPod(stack, { status: 'RUNNING' });
    const b = await seedPod(stack, { status: 'EXITED' });
    await stack.simRequest('DELETE', '/_sim/calls');
    // The volume list answers only after 3 s: all 20 GETs, sent at once, arrive while the one read is in
    // flight however busy the machine is, so the count below does not depend on the 100 ms gather window.
    await injectFault(stack, { route: 'list', kind: 'delay', delayMs: 3000 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => stack.api('GET', '/api/pods/qwen')));

    expect(new Set(answers.map((x) => x.status))).toEqual(new Set([200]));
    expect(answers[0].body).toMatchObject({ podId: a, status: 'RUNNING', isRunning: true, podsOnVolume: 2 });
    const reads = (await simCalls(stack)).map((c) => `${c.method} ${c.path}`).sort();
    expect(reads).toEqual(['GET /pods', `GET /pods/${a}`, `GET /pods/${b}`].sort());
  });

  it('keep-alive: set with minutes, shown by GET, refused without a token or with bad minutes, cleared by DELETE', async () => {
    const before = Date.now();
    const set = await stack.api<{ name: string; keepAliveUntil: string }>(
      'POST',
      '/api/pods/qwen/keepalive',
      {
        token: 'operator',
        body: { minutes: 30 },
      },
    );
    const status = await stack.api('GET', '/api/pods/qwen');
    const bad = await stack.api('POST', '/api/pods/qwen/keepalive', {
      token: 'operator',
      body: { minutes: -1 },
    });
    const anonymous = await stack.api('POST', '/api/pods/qwen/keepalive', { body: { minutes: 30 } });
    // The wake-only token is accepted on start only: a day-long keep-alive is the operator's call.
    const wakeSet = await stack.api('POST', '/api/pods/qwen/keepalive', {
      token: 'wake',
      body: { minutes: 30 },
    });
    const wakeClear = await stack.api('DELETE', '/api/pods/qwen/keepalive', { token: 'wake' });
    const heldDespiteWake = await stack.api('GET', '/api/pods/qwen');
    const cleared = await stack.api('DELETE', '/api/pods/qwen/keepalive', { token: 'operator' });
    const after = await stack.api('GET', '/api/pods/qwen');

    expect(set.status).toBe(200);
    const until = Date.parse(set.body.keepAliveUntil);
    expect(until).toBeGreaterThanOrEqual(before + 30 * 60_000);
    expect(until).toBeLessThan(Date.now() + 30 * 60_000 + 1_000);
    expect(status.body).toMatchObject({ keepAliveUntil: set.body.keepAliveUntil });
    expect([bad.status, anonymous.status, wakeSet.status, wakeClear.status]).toEqual([400, 401, 401, 401]);
    expect(heldDespiteWake.body).toMatchObject({ keepAliveUntil: set.body.keepAliveUntil });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ name: 'qwen', keepAliveUntil: null });
    expect(after.body).toMatchObject({ keepAliveUntil: null });
    expect(await simWrites(stack)).toEqual([]);
  });

  it('GET and history never return the API key or the tokens', async () => {
    await seedPod(stack, { status: 'RUNNING' });
    await stack.api('POST', '/api/pods/qwen/start', { token: 'operator' });
    const bodies = await Promise.all([
      stack.api('GET', '/api/pods/qwen'),
      stack.api('GET', '/api/pods'),
      stack.api('GET', '/api/pods/qwen/history'),
    ]);
    const text = JSON.stringify(bodies.map((b) => b.body));
    expect(text).not.toContain(TEST_API_KEY);
    expect(text).not.toContain(TEST_OPERATOR_TOKEN);
  });
});

describe('an unconfigured gateway (no API key)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ name: 'unconfigured', wakers: 0, env: { RUNPOD_API_KEY: '' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers 503 on start and stop, 200 configured:false on GET, and makes no RunPod call', async () => {
    const startAnswer = await stack.api('POST', '/api/pods/qwen/start', { token: 'operator' });
    const stopAnswer = await stack.api('POST', '/api/pods/qwen/stop', { token: 'operator' });
    const status = await stack.api('GET', '/api/pods/qwen');

    expect(startAnswer.status).toBe(503);
    expect(stopAnswer.status).toBe(503);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ name: 'qwen', configured: false, lookup: 'UNCONFIGURED' });
    expect(await simCalls(stack)).toEqual([]);
  });
});

describe('health follows Redis', () => {
  let redis: ChildProcess;
  let gateway: AppProcess;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    redis = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    const gatewayPort = await freePort();
    gateway = AppProcess.start(
      'gateway',
      {
        REDIS_URL: `redis://127.0.0.1:${port}`,
        QUEUE_PREFIX: 'pwtest-health',
        PORT: String(gatewayPort),
        HOST: '127.0.0.1',
        RIG_OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
        // Configured, so a start reaches the queue; nothing here may reach a real RunPod.
        RUNPOD_API_KEY: TEST_API_KEY,
        RUNPOD_VOLUME_ID: 'vol-health',
        RUNPOD_V2_BASE_URL: 'http://127.0.0.1:9/v2',
        WAKE_REQUEST_WAIT_SECONDS: '1',
      },
      'health-gateway',
    );
    const url = `http://127.0.0.1:${gatewayPort}`;
    await eventually(
      async () => ((await fetch(`${url}/health/ready`)).ok ? url : undefined),
      20_000,
      'ready',
    );
    (gateway as AppProcess & { url?: string }).url = url;
  });
  afterAll(async () => {
    await gateway?.stop();
    redis?.kill('SIGKILL');
  });

  it('ready is 200 while Redis answers and 503 once it stops; live stays 200', async () => {
    const url = (gateway as AppProcess & { url?: string }).url as string;
    expect((await fetch(`${url}/health/ready`)).status).toBe(200);
    redis.kill('SIGKILL');
    await eventually(
      async () => ((await fetch(`${url}/health/ready`)).status === 503 ? true : undefined),
      15_000,
      'not ready',
    );
    expect((await fetch(`${url}/health/live`)).status).toBe(200);
  });

  it('during the outage a start is a 503 problem, and SIGTERM still shuts down and exits 0', async () => {
    const url = (gateway as AppProcess & { url?: string }).url as string;
    const start = await fetch(`${url}/api/pods/qwen/start`, {
      method: 'POST',
      headers: { 'X-Rig-Operator-Token': TEST_OPERATOR_TOKEN },
    });
    expect(start.status).toBe(503);
    expect(start.headers.get('content-type')).toContain('application/problem+json');
    expect(await gateway.stop()).toBe(0);
  });
});
