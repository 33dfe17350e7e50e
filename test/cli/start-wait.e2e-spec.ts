import { eventually } from '../support/app-process';
import { injectFault, resetSim, seedPod, simPods, simWrites } from '../support/sim-admin';
import { IDLE_TEST_TIMINGS } from '../idle/support/idle-harness';
import { Stack } from '../support/stack';
import { CLI_IDLE_ENV, cliEnv, stackEnv } from './support/cli-env';
import { CliProcess, expectOneDocument } from './support/cli-process';
import { FrontGateway, sendJson } from './support/front-gateway';

/**
 * `start --wait` against the running system: simulator, gateway, a waker and
 * an idle monitor (which sets readySince). The gateway answers the start
 * after one second, so waits also cross the 202 path. Every rule of the wait
 * is driven through the built CLI as a process.
 */
describe('podwarden start --wait', () => {
  let stack: Stack;
  let front: FrontGateway;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'cli-wait',
      wakers: 1,
      idleMonitors: 1,
      env: { ...CLI_IDLE_ENV, WAKE_REQUEST_WAIT_SECONDS: '1' },
    });
    front = await FrontGateway.start(stack.gatewayUrl);
  });
  afterAll(async () => {
    await front?.stop();
    await stack?.stop();
  });
  beforeEach(async () => {
    // The idle specs' timings: RUNNING two seconds after a create, the model three seconds later.
    await resetSim(stack, { timings: IDLE_TEST_TIMINGS });
    front.fault = 'none';
    front.faultWhen = () => true;
    front.requests.length = 0;
  });

  const wait = (env: Record<string, string> = {}, extra: string[] = []) =>
    new CliProcess(['start', 'qwen', '--wait', ...extra], stackEnv(stack, env));

  /** A stopped pod whose model never loads until the test says so: the wait's ids are known and nothing gets ready. */
  async function neverReadyPod(): Promise<string> {
    return seedPod(stack, { status: 'EXITED', behaviour: 'never-ready' });
  }

  async function makeReady(podId: string): Promise<void> {
    const answer = await stack.simRequest('POST', `/_sim/pods/${podId}/vllm`, { behaviour: 'normal' });
    expect(answer.status).toBe(200);
  }

  it('returns when readySince is set, not when the pod is RUNNING; stdout is one JSON document, progress on stderr', async () => {
    const cli = wait();
    let sawRunningNotReady = false;
    while (cli.running) {
      const view = (await stack.api<{ status: string; readySince: string | null }>('GET', '/api/pods/qwen'))
        .body;
      if (view.status === 'RUNNING' && view.readySince === null && cli.running) sawRunningNotReady = true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const result = await cli.result();
    const exitedAt = Date.now();

    expect(result.code).toBe(0);
    expectOneDocument(result);
    const [pod] = await simPods(stack);
    expect(result.json).toMatchObject({ name: 'qwen', status: 'RUNNING', isRunning: true, podId: pod.id });
    expect(Date.parse(String(result.json.readySince))).toBeLessThanOrEqual(exitedAt);
    expect(sawRunningNotReady).toBe(true);
    expect(result.stderr).toContain('following the event stream');
    expect(result.stderr).toContain('ready: the model answers');
    expect(result.stderr).not.toContain('\x1b[');
  });

  it('times out after --wait-timeout with wait_timeout and the ids; nothing is stopped', async () => {
    const podId = await neverReadyPod();
    const result = await wait({}, ['--wait-timeout', '5s']).result();

    expect(result.code).toBe(8);
    expectOneDocument(result);
    expect(result.json).toMatchObject({
      code: 'wait_timeout',
      message: expect.stringContaining('within 5s'),
      attemptId: expect.any(String),
      podId,
      lastStatus: expect.objectContaining({ status: 'RUNNING', readySince: null }),
    });
    expect(await simWrites(stack)).toEqual([`POST /pods/${podId}/action start`]);
    expect((await simPods(stack)).map((p) => p.status)).toEqual(['RUNNING']);
  });

  it('Ctrl-C ends the wait with wait_interrupted carrying attemptId and podId; nothing is stopped', async () => {
    const podId = await neverReadyPod();
    const cli = wait();
    await cli.waitForStderr('model loading');
    cli.interrupt();
    const result = await cli.result();

    expect(result.code).toBe(130);
    expectOneDocument(result);
    expect(result.json).toMatchObject({ code: 'wait_interrupted', attemptId: expect.any(String), podId });
    expect(await simWrites(stack)).toEqual([`POST /pods/${podId}/action start`]);
    expect((await simPods(stack)).map((p) => p.status)).toEqual(['RUNNING']);
  });

  it('a second Ctrl-C exits at once, even while the last status read hangs', async () => {
    front.fault = 'hang';
    const cli = new CliProcess(['start', 'qwen', '--wait'], cliEnv(front.url));
    await eventually(
      async () => (front.seen('POST', '/api/pods/qwen/start').length > 0 ? true : undefined),
      30_000,
      'the start request',
    );
    cli.interrupt();
    await cli.waitForStderr('reading the status once more');
    await eventually(
      async () => (front.seen('GET', '/api/pods/qwen').length > 0 ? true : undefined),
      30_000,
      'the last status read',
    );
    cli.interrupt();
    const result = await cli.result();

    expect(result.code).toBe(130);
    expectOneDocument(result);
    expect(result.json).toMatchObject({
      code: 'wait_interrupted',
      message: expect.stringContaining('interrupted again'),
      attemptId: null,
      podId: null,
    });
  });

  it('5xx answers and dropped connections during a wait do not end it', async () => {
    const podId = await neverReadyPod();
    // A proxy that does not pass the event stream: the wait polls, and the polls meet the faults.
    front.route('GET', /^\/api\/pods\/qwen\/events$/, (_request, response) =>
      sendJson(response, 404, { type: 'about:blank', title: 'Not Found', status: 404 }),
    );
    const cli = new CliProcess(['start', 'qwen', '--wait'], cliEnv(front.url));
    await cli.waitForStderr('model loading');
    const statusReads = () => front.seen('GET', '/api/pods/qwen');
    front.faultWhen = (request) => request.method === 'GET' && request.path === '/api/pods/qwen';
    for (const fault of ['bad-gateway', 'drop'] as const) {
      const before = statusReads().filter((r) => r.fault === fault).length;
      front.fault = fault;
      await eventually(
        async () => (statusReads().filter((r) => r.fault === fault).length >= before + 2 ? true : undefined),
        30_000,
        `two ${fault} status reads`,
      );
    }
    front.fault = 'none';
    await makeReady(podId);
    const result = await cli.result();

    expect(result.code).toBe(0);
    expectOneDocument(result);
    expect(result.json).toMatchObject({ podId, readySince: expect.any(String) });
    expect(result.stderr).toContain('the gateway answered 502');
    expect(result.stderr).toMatch(/the gateway did not answer: .*(closed|socket|reset)/i);
  });

  it('a wake that fails after the start answered 202 ends the wait as failed (read from GET’s lastWake), with the attemptId', async () => {
    await injectFault(stack, { route: 'catalog', kind: 'delay', delayMs: 3_000 });
    await injectFault(stack, { route: 'create', kind: 'status', status: 400, times: 10 });
    const result = await wait().result();

    expect(result.code).toBe(5);
    expectOneDocument(result);
    expect(result.stderr).toMatch(/wake \S+: Waiting/);
    expect(result.json).toMatchObject({
      code: 'failed',
      reason: 'wake-failed',
      attemptId: expect.any(String),
    });
  });

  it('a pod stopped during the wait ends it as failed, naming the pod; the CLI itself stops nothing', async () => {
    const podId = await neverReadyPod();
    const cli = wait();
    await cli.waitForStderr('model loading');
    // The pod runs before its wake publishes the outcome; a stop in between
    // wins over the wake (it ends Failed, "stopped by operator"). This case is
    // a pod stopped after its wake succeeded, so the stop waits for that.
    await eventually(
      async () => {
        const status = await stack.api('GET', '/api/pods/qwen');
        const body = status.body as { wake: unknown; lastWake: { outcome?: string } | null };
        return body.wake === null && body.lastWake?.outcome === 'Succeeded' ? true : undefined;
      },
      60_000,
      'the wake to succeed',
    );
    expect((await stack.api('POST', '/api/pods/qwen/stop', { token: 'operator' })).status).toBe(200);
    const result = await cli.result();

    expect(result.code).toBe(5);
    expectOneDocument(result);
    expect(result.json).toMatchObject({
      code: 'failed',
      reason: 'pod-stopped',
      podId,
      attemptId: expect.any(String),
    });
    expect(await simWrites(stack)).toEqual([
      `POST /pods/${podId}/action start`,
      `POST /pods/${podId}/action stop`,
    ]);
  });
});
