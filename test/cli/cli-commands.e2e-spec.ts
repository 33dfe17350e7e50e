import { eventually } from '../support/app-process';
import { freePort } from '../support/free-port';
import { resetSim, seedPod, simWrites } from '../support/sim-admin';
import { Stack } from '../support/stack';
import { TEST_OPERATOR_TOKEN, TEST_WAKE_TOKEN } from '../support/test-env';
import { cliEnv, stackEnv } from './support/cli-env';
import { CliProcess, expectOneDocument, runCli, type CliResult } from './support/cli-process';
import { FrontGateway, sendJson } from './support/front-gateway';

/**
 * Every command but the wait, through the built CLI against the built
 * gateway and waker: one JSON document on stdout, the documented exit code,
 * and each error code where it belongs.
 */
describe('podwarden commands against the running system', () => {
  let stack: Stack;
  let front: FrontGateway;

  beforeAll(async () => {
    stack = await Stack.start({ name: 'cli-commands', wakers: 1 });
    front = await FrontGateway.start(stack.gatewayUrl);
  });
  afterAll(async () => {
    await front?.stop();
    await stack?.stop();
  });
  beforeEach(async () => {
    await resetSim(stack);
    front.requests.length = 0;
  });

  const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, stackEnv(stack, env));

  function expectDocument(result: CliResult, code: number): Record<string, unknown> {
    expect({ exit: result.code, stdout: result.stdout }).toMatchObject({ exit: code });
    expectOneDocument(result);
    return result.json;
  }

  it('status lists every pod; status NAME is the GET answer as it is', async () => {
    const podId = await seedPod(stack, { status: 'RUNNING' });
    const all = expectDocument(await cli(['status']), 0);
    expect(all).toMatchObject({ pods: [expect.objectContaining({ name: 'qwen', podId })] });
    const one = expectDocument(await cli(['status', 'QWEN']), 0);
    expect(one).toMatchObject({ name: 'qwen', status: 'RUNNING', isRunning: true, podId, lookup: 'FOUND' });
    expect(Object.keys(one)).toEqual(Object.keys((await stack.api('GET', '/api/pods/qwen')).body));
  });

  it('an unknown pod is not_found (exit 4) on every command, with no RunPod write', async () => {
    for (const args of [
      ['status', 'nope'],
      ['start', 'nope'],
      ['start', 'nope', '--wait'],
      ['stop', 'nope'],
      ['history', 'nope'],
    ]) {
      const error = expectDocument(await cli(args), 4);
      expect(error).toMatchObject({ code: 'not_found', message: expect.stringContaining('nope') });
    }
    expect(await simWrites(stack)).toEqual([]);
  });

  it('start without --wait prints the start answer (Created) and exits 0', async () => {
    const started = expectDocument(await cli(['start', 'qwen']), 0);
    expect(started).toMatchObject({
      name: 'qwen',
      outcome: 'Created',
      attemptId: expect.any(String),
      podId: expect.any(String),
    });
    expect(await simWrites(stack)).toEqual(['POST /pods']);
  });

  it('a wrong or missing token is unauthorized (exit 3), nothing is written, and the token is never printed', async () => {
    const wrong = await cli(['start', 'qwen', '--wait'], { PODWARDEN_TOKEN: 'wrong-token-5e1' });
    expect(expectDocument(wrong, 3)).toMatchObject({ code: 'unauthorized', attemptId: null, podId: null });
    const plain = await cli(['start', 'qwen'], { PODWARDEN_TOKEN: 'wrong-token-5e1' });
    expect(expectDocument(plain, 3)).toMatchObject({
      code: 'unauthorized',
      name: 'qwen',
      attemptId: null,
      podId: null,
    });
    const missing = await runCli(['stop', 'qwen'], cliEnv(stack.gatewayUrl, { PODWARDEN_TOKEN: '' }));
    expect(expectDocument(missing, 3)).toMatchObject({ code: 'unauthorized' });
    const wakeTokenStop = await cli(['stop', 'qwen'], { PODWARDEN_TOKEN: TEST_WAKE_TOKEN });
    expect(expectDocument(wakeTokenStop, 3)).toMatchObject({ code: 'unauthorized' });
    expect(await simWrites(stack)).toEqual([]);
    expect(wrong.stdout + wrong.stderr).not.toContain('wrong-token-5e1');
  });

  it('the token goes in X-Rig-Operator-Token, from PODWARDEN_TOKEN or --token (which wins)', async () => {
    await runCli(['status', 'qwen'], cliEnv(front.url));
    await runCli(['status', 'qwen', '--token', 'flag-token'], cliEnv(front.url));
    expect(front.requests.map((r) => r.token)).toEqual([TEST_OPERATOR_TOKEN, 'flag-token']);
  });

  /** The stops in the pod's usage record, as GET …/usage answers them. */
  const usageStops = async () =>
    (
      await stack.api<{ stops: Array<{ at: string; trigger: string }> }>('GET', '/api/pods/qwen/usage', {
        token: 'operator',
      })
    ).body.stops;

  it('stop prints the per-pod answer and is in the usage record as manual; nothing on the volume is not_found', async () => {
    const before = await usageStops();
    const podId = await seedPod(stack, { status: 'RUNNING' });
    const asked = Date.now();
    expect(expectDocument(await cli(['stop', 'qwen']), 0)).toEqual({
      name: 'qwen',
      ok: true,
      pods: [{ podId, ok: true }],
      stopConfirmed: false,
    });
    // The gateway writes it after answering: wait for it, then pin it.
    const after = await eventually(
      async () => ((await usageStops()).length > before.length ? usageStops() : undefined),
      30_000,
      'the stop in GET …/usage',
      100,
    );
    expect(after.slice(before.length)).toEqual([{ at: expect.any(String), trigger: 'manual' }]);
    expect(Date.parse(after[before.length].at)).toBeGreaterThanOrEqual(asked);
    await resetSim(stack);
    expect(expectDocument(await cli(['stop', 'qwen']), 4)).toMatchObject({
      code: 'not_found',
      httpStatus: 404,
    });
  });

  it('stop that RunPod refuses is failed (exit 5), naming the pod that may still bill', async () => {
    const podId = await seedPod(stack, { status: 'RUNNING' });
    await stack.simRequest('POST', '/_sim/faults', {
      route: 'action',
      podId,
      kind: 'status',
      status: 500,
      times: 20,
    });
    const before = await usageStops();
    const error = expectDocument(await cli(['stop', 'qwen']), 5);
    expect(error).toMatchObject({ code: 'failed', podId, pods: [{ podId, ok: false }] });
    // Nothing was stopped, so nothing is in the usage record (GET …/usage reads after the answer).
    expect(await usageStops()).toEqual(before);
  });

  it('history and keepalive print the gateway’s answers; out-of-range values are bad_request from the gateway', async () => {
    await cli(['start', 'qwen']);
    const history = expectDocument(await cli(['history', 'qwen', '--limit', '1']), 0);
    expect(history).toMatchObject({ name: 'qwen', actions: [expect.objectContaining({ action: 'Create' })] });
    expect(history.wakes).toEqual([expect.objectContaining({ requestedBy: 'podwarden-cli' })]);
    expect(expectDocument(await cli(['history', 'qwen', '--limit', '500']), 2)).toMatchObject({
      code: 'bad_request',
      httpStatus: 400,
    });

    const kept = expectDocument(await cli(['keepalive', 'qwen', '--minutes', '2.5']), 0);
    expect(Date.parse(String(kept.keepAliveUntil))).toBeGreaterThan(Date.now());
    expect(expectDocument(await cli(['keepalive', 'qwen', '--minutes', '5000']), 2)).toMatchObject({
      code: 'bad_request',
    });
  });

  it('bad arguments are bad_request (exit 2) before any request is made', async () => {
    for (const args of [
      ['start', 'qwen', '--wait', '--wait-timeout', '0'],
      ['start', 'qwen', '--wait', '--wait-timeout', '-5m'],
      ['start', 'qwen', '--wait', '--wait-timeout', 'soon'],
      ['start', 'qwen', '--wait', '--wait-timeout', '200000d'],
      ['history', 'qwen', '--limit', 'ten'],
      ['keepalive', 'qwen', '--minutes', 'zero'],
      ['keepalive', 'qwen'],
      ['launch', 'qwen'],
    ]) {
      const error = expectDocument(await runCli(args, cliEnv(front.url)), 2);
      expect(error).toMatchObject({ code: 'bad_request' });
    }
    expect(front.requests).toEqual([]);
  });

  it('a gateway that does not answer is unreachable (exit 7): closed port, 502 from a proxy, a dropped connection', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    expect(expectDocument(await runCli(['status', 'qwen'], cliEnv(closed)), 7)).toMatchObject({
      code: 'unreachable',
    });
    front.fault = 'bad-gateway';
    expect(expectDocument(await runCli(['status'], cliEnv(front.url)), 7)).toMatchObject({
      code: 'unreachable',
      httpStatus: 502,
    });
    front.fault = 'drop';
    const dropped = expectDocument(await runCli(['start', 'qwen'], cliEnv(front.url)), 7);
    expect(dropped).toMatchObject({
      code: 'unreachable',
      message: expect.stringContaining('repeating the start is safe'),
    });
    front.fault = 'none';
  });

  it('a refused wake (no GPU under the cap) is refused (exit 6) with its attemptId; nothing billed', async () => {
    await stack.simRequest('PUT', '/_sim/config', {
      catalog: [
        {
          id: 'NVIDIA H200',
          memory: 141,
          price: { secure: 3.59 },
          dataCenters: [{ id: 'EU-RO-1', availability: 'HIGH' }],
        },
      ],
    });
    const error = expectDocument(await cli(['start', 'qwen', '--wait']), 6);
    expect(error).toMatchObject({ code: 'refused', attemptId: expect.any(String), httpStatus: 409 });
    expect(await simWrites(stack)).toEqual([]);
  });

  it('events follows the real route: one JSON line per event, ended by Ctrl-C with exit 0', async () => {
    const events = new CliProcess(['events', 'qwen'], stackEnv(stack));
    await events.waitForStderr('following the event stream');
    expect(
      (await stack.api('POST', '/api/pods/qwen/keepalive', { token: 'operator', body: { minutes: 7 } }))
        .status,
    ).toBe(200);
    await eventually(
      async () => (events.stdout.includes('"keepalive"') ? true : undefined),
      30_000,
      'the keepalive line',
    );
    events.interrupt();
    const result = await events.result();
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual({
      id: expect.stringMatching(/^\d+-\d+$/),
      event: 'keepalive',
      data: expect.objectContaining({ pod: 'qwen', minutes: 7, keepAliveUntil: expect.any(String) }),
    });
  });

  it('events against a gateway without the route says so (not_found); an unknown pod is not_found too', async () => {
    // A gateway (or a proxy) without the route: the pod is known, its events are not served.
    const noRoute = await FrontGateway.start(stack.gatewayUrl);
    noRoute.route('GET', /\/events$/, (_request, response) =>
      sendJson(response, 404, { type: 'about:blank', title: 'Not Found', status: 404 }),
    );
    try {
      const absent = expectDocument(await runCli(['events', 'qwen'], cliEnv(noRoute.url)), 4);
      expect(absent).toMatchObject({
        code: 'not_found',
        message: expect.stringContaining('no event stream'),
      });
    } finally {
      await noRoute.stop();
    }
    const unknown = expectDocument(await cli(['events', 'nope']), 4);
    expect(unknown).toMatchObject({ code: 'not_found', message: expect.stringContaining('no pod named') });
  });
});
