import { freePort } from '../support/free-port';
import { injectFault, resetSim, seedPod } from '../support/sim-admin';
import { Stack } from '../support/stack';

/**
 * Every answer below is checked against the gateway's /docs-json by
 * Stack.api(); this file drives each documented route to each documented
 * status through the built apps, then asserts that nothing documented was
 * left unexercised, so the document and the answers cannot drift apart.
 */

// Documented but not reachable from outside, each covered elsewhere.
const UNREACHABLE_END_TO_END = [
  // An unexpected error cannot be provoked through the contract: http/problem-details.filter.spec.ts.
  /^\S+ \S+ 500$/,
  // Liveness checks nothing that can fail while the process answers at all.
  /^GET \/health\/live 503$/,
];

describe('the OpenAPI document, end to end', () => {
  const stacks: Stack[] = [];
  const start = async (...options: Parameters<typeof Stack.start>): Promise<Stack> => {
    const stack = await Stack.start(...options);
    stacks.push(stack);
    return stack;
  };

  afterAll(async () => {
    await Promise.all(stacks.map((stack) => stack.stop()));
  });

  it('reads, history and the keep-alive answer as documented, errors included', async () => {
    const stack = await start({ name: 'openapi-reads', wakers: 0 });
    await resetSim(stack);
    await seedPod(stack, { status: 'RUNNING' });
    const statuses = [
      (await stack.api('GET', '/health/live')).status,
      (await stack.api('GET', '/health/ready')).status,
      (await stack.api('GET', '/api/pods')).status,
      (await stack.api('GET', '/api/pods/qwen')).status,
      (await stack.api('GET', '/api/pods/nobody')).status,
      (await stack.api('GET', '/api/pods/qwen/history?limit=5')).status,
      (await stack.api('GET', '/api/pods/qwen/history?limit=0')).status,
      (await stack.api('GET', '/api/pods/nobody/history')).status,
      (await stack.api('POST', '/api/pods/qwen/keepalive', { token: 'operator', body: { minutes: 5 } }))
        .status,
      (await stack.api('POST', '/api/pods/qwen/keepalive', { token: 'operator', body: { minutes: -1 } }))
        .status,
      (await stack.api('POST', '/api/pods/qwen/keepalive', { body: { minutes: 5 } })).status,
      (await stack.api('POST', '/api/pods/nobody/keepalive', { token: 'operator', body: { minutes: 5 } }))
        .status,
      (await stack.api('DELETE', '/api/pods/qwen/keepalive', { token: 'operator' })).status,
      (await stack.api('DELETE', '/api/pods/qwen/keepalive', { token: 'nope' })).status,
      (await stack.api('DELETE', '/api/pods/nobody/keepalive', { token: 'operator' })).status,
      (await stack.api('GET', '/api/pods/nobody/events')).status,
      (await stack.api('GET', '/api/pods/qwen/diagnosis', { token: 'operator' })).status,
      (await stack.api('GET', '/api/pods/qwen/diagnosis')).status,
      (await stack.api('GET', '/api/pods/nobody/diagnosis', { token: 'operator' })).status,
      (await stack.api('GET', '/api/pods/qwen/usage?days=7', { token: 'operator' })).status,
      (await stack.api('GET', '/api/pods/qwen/usage?days=0', { token: 'operator' })).status,
      (await stack.api('GET', '/api/pods/qwen/usage')).status,
      (await stack.api('GET', '/api/pods/nobody/usage', { token: 'operator' })).status,
    ];
    expect(statuses).toEqual([
      200, 200, 200, 200, 404, 200, 400, 404, 200, 400, 401, 404, 200, 401, 404, 404, 200, 401, 404, 200, 400,
      401, 404,
    ]);
    const events = await stack.eventStream('/api/pods/qwen/events');
    await events.close();
    expect(events.opening.status).toBe(200);
  });

  it('start and stop answer as documented, errors included', async () => {
    const stack = await start({ name: 'openapi-writes', wakers: 1 });
    await resetSim(stack);
    const running = await seedPod(stack, { status: 'RUNNING' });
    const started = await stack.api('POST', '/api/pods/qwen/start', { token: 'operator' });
    expect(started).toMatchObject({ status: 200, body: { outcome: 'AlreadyRunning', podId: running } });
    expect((await stack.api('POST', '/api/pods/qwen/start')).status).toBe(401);
    expect((await stack.api('POST', '/api/pods/nobody/start', { token: 'wake' })).status).toBe(404);
    expect((await stack.api('POST', '/api/pods/qwen/stop', { token: 'operator' })).status).toBe(200);
    expect((await stack.api('POST', '/api/pods/qwen/stop', { token: 'wake' })).status).toBe(401);
    expect((await stack.api('POST', '/api/pods/nobody/stop', { token: 'operator' })).status).toBe(404);
    await injectFault(stack, { route: 'list', kind: 'unreadable' });
    expect((await stack.api('POST', '/api/pods/qwen/stop', { token: 'operator' })).status).toBe(503);

    // Nothing on the volume and every create refused: the wake fails and nothing is in flight.
    await resetSim(stack);
    await injectFault(stack, { route: 'create', kind: 'status', status: 422, times: 50 });
    const failed = await stack.api('POST', '/api/pods/qwen/start', { token: 'operator' });
    expect(failed).toMatchObject({ status: 409, body: { outcome: 'Failed', name: 'qwen' } });
    expect((await stack.api('POST', '/api/pods/qwen/stop', { token: 'operator' })).status).toBe(404);
  });

  it('a wake that outlasts the request answers 202 Waiting as documented', async () => {
    // No waker: the job waits in the queue past the request's wait.
    const stack = await start({
      name: 'openapi-waiting',
      wakers: 0,
      env: { WAKE_REQUEST_WAIT_SECONDS: '1' },
    });
    const waiting = await stack.api('POST', '/api/pods/qwen/start', { token: 'wake' });
    expect(waiting).toMatchObject({ status: 202, body: { outcome: 'Waiting', podId: null } });
  });

  it('with the gate on and no operator token, and with Redis gone, the 503s are as documented', async () => {
    const gateless = await start({ name: 'openapi-no-token', wakers: 0, env: { RIG_OPERATOR_TOKEN: '' } });
    expect((await gateless.api('POST', '/api/pods/qwen/start', { token: 'wake' })).status).toBe(503);

    const redisGone = await start({
      name: 'openapi-no-redis',
      wakers: 0,
      gatewayUp: 'live',
      env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
    });
    const statuses = [
      (await redisGone.api('GET', '/health/ready')).status,
      (await redisGone.api('GET', '/api/pods/qwen/history')).status,
      (await redisGone.api('POST', '/api/pods/qwen/keepalive', { token: 'operator', body: { minutes: 5 } }))
        .status,
      (await redisGone.api('DELETE', '/api/pods/qwen/keepalive', { token: 'operator' })).status,
      (await redisGone.api('POST', '/api/pods/qwen/start', { token: 'operator' })).status,
      (await redisGone.api('GET', '/api/pods/qwen/events')).status,
      (await redisGone.api('GET', '/api/pods/qwen/diagnosis', { token: 'operator' })).status,
      (await redisGone.api('GET', '/api/pods/qwen/usage', { token: 'operator' })).status,
    ];
    expect(statuses).toEqual([503, 503, 503, 503, 503, 503, 503, 503]);
  });

  it('covers every documented route and status that can be reached from outside', () => {
    expect(stacks).toHaveLength(5);
    const documented = stacks[0].openApi?.documented() ?? [];
    expect(documented.length).toBeGreaterThan(0);
    const exercised = new Set(stacks.flatMap((stack) => [...(stack.openApi?.exercised ?? [])]));
    const reachable = documented.filter((route) => !UNREACHABLE_END_TO_END.some((rule) => rule.test(route)));
    expect(reachable.filter((route) => !exercised.has(route))).toEqual([]);
  });
});
