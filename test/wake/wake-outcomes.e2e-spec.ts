import { Stack } from '../support/stack';
import {
  clearSimCalls,
  injectFault,
  resetSim,
  seedPod,
  simCalls,
  simPods,
  simWrites,
  type SimCall,
} from '../support/sim-admin';

/**
 * Wake end to end: the built gateway and waker as real processes, a real
 * Redis and the simulator. Each test resets the simulator and asserts the
 * exact billable writes RunPod saw.
 */
describe('wake through the gateway and the waker', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ name: 'wake', wakers: 1 });
  });
  afterAll(async () => {
    await stack?.stop();
  });
  beforeEach(async () => {
    await resetSim(stack);
  });

  const start = () =>
    stack.api<Record<string, unknown>>('POST', '/api/pods/qwen/start', { token: 'operator' });

  it('a stopped pod on the volume is started (Started), with one Start and nothing created', async () => {
    const podId = await seedPod(stack, { status: 'EXITED' });
    const answer = await start();

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: 'qwen', outcome: 'Started', podId });
    expect(await simWrites(stack)).toEqual([`POST /pods/${podId}/action start`]);
    const history = await stack.api<{
      actions: Array<Record<string, unknown>>;
      wakes: Array<Record<string, unknown>>;
    }>('GET', '/api/pods/qwen/history');
    expect(history.body.actions.slice(0, 1)).toEqual([
      expect.objectContaining({ action: 'Start', podId, ok: true, trigger: 'wake', httpStatus: 200 }),
    ]);
    expect(history.body.wakes[0]).toMatchObject({ outcome: 'Succeeded', wakeOutcome: 'Started', podId });
  });

  it('a running pod answers AlreadyRunning with no RunPod write', async () => {
    const podId = await seedPod(stack, { status: 'RUNNING' });
    const answer = await start();

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      outcome: 'AlreadyRunning',
      podId,
      proxyUrl: `${stack.simUrl}/proxy/${podId}-8000`,
    });
    expect(await simWrites(stack)).toEqual([]);
  });

  it('no pod on the volume: one create on the cheapest eligible GPU (Created), polled to RUNNING', async () => {
    const answer = await start();

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ outcome: 'Created', gpuId: 'NVIDIA RTX A6000', pricePerHour: 0.49 });
    expect(await simWrites(stack)).toEqual(['POST /pods']);
    const pods = await simPods(stack);
    expect(pods).toHaveLength(1);
    expect(pods[0]).toMatchObject({ id: answer.body.podId, status: 'RUNNING' });
    expect(String(pods[0].name)).toMatch(/^podwarden-qwen-\d{8}T\d{6}Z$/);
    const status = await stack.api('GET', '/api/pods/qwen');
    expect(status.body).toMatchObject({
      status: 'RUNNING',
      isRunning: true,
      podId: answer.body.podId,
      podsOnVolume: 1,
    });
  });

  it('a stale pod listed first whose start does not take: a replacement is created and the stale one terminated only after RUNNING', async () => {
    await resetSim(stack, { listOrder: 'stale-first' });
    const stale = await seedPod(stack, { status: 'EXITED' });
    await injectFault(stack, { route: 'action', podId: stale, times: 1, kind: 'status', status: 500 });
    const answer = await start();

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ outcome: 'Created' });
    expect(await simWrites(stack)).toEqual([
      `POST /pods/${stale}/action start`,
      'POST /pods',
      `DELETE /pods/${stale}`,
    ]);
    // The DELETE came after the replacement was RUNNING with a GPU, by the simulator's own clock, and
    // after a read of the replacement that the simulator answered while it was so.
    const replacement = String(answer.body.podId);
    const runningSince = await runningWithGpuSince(stack, replacement);
    // The simulator numbers its calls in arrival order (`seq`).
    const calls = (await simCalls(stack)) as Array<SimCall & { seq: number }>;
    const deleteCall = onlyCall(calls, 'DELETE', `/pods/${stale}`);
    expect(Date.parse(deleteCall.at)).toBeGreaterThanOrEqual(runningSince);
    const readsWhileRunning = calls.filter(
      (c) =>
        c.method === 'GET' &&
        c.path === `/pods/${replacement}` &&
        c.status === 200 &&
        Date.parse(c.at) >= runningSince &&
        c.seq < deleteCall.seq,
    );
    expect(readsWhileRunning.length).toBeGreaterThanOrEqual(1);
    const history = await stack.api<{ actions: Array<Record<string, unknown>> }>(
      'GET',
      '/api/pods/qwen/history',
    );
    expect(history.body.actions[0]).toMatchObject({
      action: 'Terminate',
      podId: stale,
      ok: true,
      trigger: 'wake',
    });
    const status = await stack.api('GET', '/api/pods/qwen');
    expect(status.body).toMatchObject({
      status: 'RUNNING',
      isRunning: true,
      podId: answer.body.podId,
      podsOnVolume: 1,
    });
  });

  it('429 with Retry-After: the waker waits, re-reads the volume, re-posts the same GPU once and succeeds', async () => {
    await injectFault(stack, { route: 'create', times: 1, kind: 'status', status: 429, retryAfter: '1' });
    const answer = await start();

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ outcome: 'Created', gpuId: 'NVIDIA RTX A6000' });
    expect(await simWrites(stack)).toEqual(['POST /pods', 'POST /pods']);
    const history = await stack.api<{ actions: Array<Record<string, unknown>> }>(
      'GET',
      '/api/pods/qwen/history',
    );
    expect(history.body.actions.slice(0, 2).map((a) => [a.action, a.httpStatus, a.ok])).toEqual([
      ['Create', 201, true],
      ['Create', 429, false],
    ]);
  });

  it('a 5xx returned after the create took effect: the placed pod is adopted, never a second create', async () => {
    await injectFault(stack, { route: 'create', times: 1, kind: 'after-effect', status: 503 });
    const answer = await start();

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ outcome: 'Created' });
    expect(await simWrites(stack)).toEqual(['POST /pods']);
    const pods = await simPods(stack);
    expect(pods).toHaveLength(1);
    expect(pods[0].id).toBe(answer.body.podId);
    const history = await stack.api<{ actions: Array<Record<string, unknown>> }>(
      'GET',
      '/api/pods/qwen/history',
    );
    expect(history.body.actions[0]).toMatchObject({
      action: 'Create',
      ok: true,
      detail: expect.stringContaining('adopted'),
    });
  });

  it('a 2xx create without a pod id: Failed with a Warning, no second create', async () => {
    await injectFault(stack, { route: 'create', times: 1, kind: 'no-id' });
    const answer = await start();

    expect(answer.status).toBe(409);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ outcome: 'Failed', detail: expect.stringContaining('no pod id') });
    expect(await simWrites(stack)).toEqual(['POST /pods']);
    await stack.wakers[0].waitForLine(
      (l) => l.json?.level === 40 && l.msg.includes('without a pod id'),
      5_000,
      'a Warning about the id-less create',
    );
  });

  it('an unreadable volume list: Failed (Refused), zero writes', async () => {
    await injectFault(stack, { route: 'list', times: 1, kind: 'unreadable' });
    const answer = await start();

    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ outcome: 'Failed', detail: expect.stringContaining('unreadable') });
    expect(await simWrites(stack)).toEqual([]);
    const history = await stack.api<{ wakes: Array<Record<string, unknown>> }>(
      'GET',
      '/api/pods/qwen/history',
    );
    expect(history.body.wakes[0]).toMatchObject({ outcome: 'Refused', wakeOutcome: 'Failed' });
  });

  it('no GPU under the cap: 409 naming every excluded GPU with its reason, nothing created', async () => {
    await resetSim(stack, {
      catalog: [
        {
          id: 'AMD Instinct MI300X OAM',
          memory: 192,
          price: { secure: 2.49 },
          dataCenters: [{ id: 'EU-RO-1', availability: 'HIGH' }],
        },
        {
          id: 'NVIDIA GeForce RTX 4090',
          memory: 24,
          price: { secure: 0.69 },
          dataCenters: [{ id: 'EU-RO-1', availability: 'HIGH' }],
        },
        {
          id: 'NVIDIA H100 80GB HBM3',
          memory: 80,
          price: { secure: 0.99 },
          dataCenters: [{ id: 'US-TX-3', availability: 'HIGH' }],
        },
        {
          id: 'NVIDIA L40S',
          memory: 48,
          price: { secure: 0.86 },
          dataCenters: [{ id: 'EU-RO-1', availability: 'NONE' }],
        },
      ],
    });
    const answer = await start();

    expect(answer.status).toBe(409);
    const detail = String(answer.body.detail);
    expect(detail).toContain('AMD Instinct MI300X OAM: PriceAboveMaximum');
    expect(detail).toContain('NVIDIA GeForce RTX 4090: BelowMinVram');
    expect(detail).toContain('NVIDIA H100 80GB HBM3: NotInDataCenter');
    expect(detail).toContain('NVIDIA L40S: NoCapacity');
    expect(await simWrites(stack)).toEqual([]);
  });

  it('a pod that never finishes starting: 202 Waiting after the poll budget, nothing started, created or terminated', async () => {
    const podId = await seedPod(stack, { status: 'EXITED' });
    await stack.simRequest('POST', `/_sim/pods/${podId}/status`, { status: 'STARTING' });
    await clearSimCalls(stack);
    const answer = await start();

    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ outcome: 'Waiting', podId });
    expect(await waitForLastWake(stack)).toMatchObject({
      outcome: 'TimedOut',
      wakeOutcome: 'Waiting',
      podId,
    });
    expect(await simWrites(stack)).toEqual([]);
  });
});

async function waitForLastWake(stack: Stack): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await stack.api<{ lastWake: Record<string, unknown> | null; wake: unknown }>(
      'GET',
      '/api/pods/qwen',
    );
    if (status.body.lastWake && status.body.wake === null) return status.body.lastWake;
    if (Date.now() > deadline) throw new Error('no completed wake within 30 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * When the simulator began answering RUNNING with a live runtime (the only RUNNING the wake reads as
 * Running) for this pod, as wall-clock milliseconds, from its own lifecycle stamps and clock.
 */
async function runningWithGpuSince(stack: Stack, podId: string): Promise<number> {
  const state = await stack.simRequest<{
    now: { sim: number; wall: string; speed: number };
    pods: Array<{ id: string; internal: { lifecycle: { kind: string; attachedAt?: number } } }>;
  }>('GET', '/_sim/state');
  const pod = state.body.pods.find((p) => p.id === podId);
  const attachedAt = pod?.internal.lifecycle.attachedAt;
  if (pod?.internal.lifecycle.kind !== 'run' || attachedAt === undefined) {
    throw new Error(`pod ${podId} has no run lifecycle in the simulator: ${JSON.stringify(pod)}`);
  }
  const { now } = state.body;
  return Date.parse(now.wall) - (now.sim - attachedAt) / now.speed;
}

function onlyCall(
  calls: readonly (SimCall & { seq: number })[],
  method: string,
  path: string,
): SimCall & { seq: number } {
  const matching = calls.filter((c) => c.method === method && c.path === path);
  if (matching.length !== 1) throw new Error(`expected one ${method} ${path}, saw ${matching.length}`);
  return matching[0];
}
