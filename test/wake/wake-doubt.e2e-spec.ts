import { eventually, type AppProcess } from '../support/app-process';
import { injectFault, resetSim, simCalls, simPods, simWrites } from '../support/sim-admin';
import { Stack } from '../support/stack';

type History = {
  actions: Array<Record<string, unknown>>;
  wakes: Array<Record<string, unknown>>;
  inDoubt: Array<Record<string, unknown>>;
};

/**
 * Ambiguous creates settle instead of repeating, and the write-ahead billable
 * log survives a waker killed during a create. Wakers are started per test,
 * with the client timeout each scenario needs.
 */
describe('creates in doubt and the write-ahead billable log', () => {
  let stack: Stack;
  const started: AppProcess[] = [];

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'doubt',
      wakers: 0,
      env: { WAKE_JOB_LOCK_MS: '1500', WAKE_CREATE_SETTLE_SECONDS: '10' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });
  beforeEach(async () => {
    await resetSim(stack);
  });
  afterEach(async () => {
    for (const waker of started.splice(0)) await waker.stop();
  });

  const waker = async (env: Record<string, string> = {}): Promise<AppProcess> => {
    const process = await stack.startWaker(env);
    started.push(process);
    return process;
  };
  const start = () =>
    stack.api<Record<string, unknown>>('POST', '/api/pods/qwen/start', { token: 'operator' });
  const history = async (): Promise<History> =>
    (await stack.api<History>('GET', '/api/pods/qwen/history')).body;
  const live = async () => (await simPods(stack)).filter((p) => p.status !== 'TERMINATED');
  const faultTaken = () =>
    eventually(
      async () => {
        const faults = await stack.simRequest<{ faults: unknown[] }>('GET', '/_sim/faults');
        return faults.body.faults.length === 0 ? true : undefined;
      },
      30_000,
      'the faulted call in flight',
    );

  it('a create that times out on the client while RunPod places the pod later: one POST over two wakes', async () => {
    await waker({ RUNPOD_TIMEOUT_MS: '1000' });
    // 7 s: the first wake (1 s timeout) must have answered before the pod lands, even on a loaded
    // machine, and the pod must land inside the 10 s settle window the second wake waits out.
    await injectFault(stack, { route: 'create', kind: 'delay', delayMs: 7_000 });

    const first = await start();
    expect(first.body).toMatchObject({ outcome: 'Failed' });
    expect((await history()).inDoubt).toEqual([
      expect.objectContaining({
        action: 'Create',
        answeredStatus: 0,
        detail: expect.stringMatching(/may have placed a pod/),
      }),
    ]);
    expect(await simPods(stack)).toEqual([]);

    const second = await start();
    // The simulator logs a call once it answered it: wait for the delayed create itself.
    await eventually(
      async () =>
        (await simCalls(stack)).some((c) => (c as { fault?: string }).fault === 'delay') ? true : undefined,
      30_000,
      'the delayed create answered',
    );

    expect(second.status).toBe(200);
    expect(await simWrites(stack)).toEqual(['POST /pods']);
    expect(await live()).toHaveLength(1);
    expect(second.body).toMatchObject({ podId: (await live())[0].id });
    expect((await history()).inDoubt).toEqual([]);
  });

  it('a 5xx after placement with a list that shows the pod only seconds later: one pod, adopted', async () => {
    await waker();
    await injectFault(stack, { route: 'create', kind: 'after-effect', status: 503, listLagMs: 3_000 });

    const answer = await start();

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ outcome: 'Created' });
    expect(await simWrites(stack)).toEqual(['POST /pods']);
    expect(await live()).toHaveLength(1);
    const { actions, inDoubt } = await history();
    expect(inDoubt).toEqual([]);
    // Newest first; the history also holds the earlier tests' entries.
    expect(actions.slice(0, 2).map((a) => [a.action, a.httpStatus, a.ok])).toEqual([
      ['Create', 503, true],
      ['Create', 503, false],
    ]);
  });

  it('a waker killed during a create: the intent is in doubt in /history, and the next run reconciles it', async () => {
    const victim = await waker();
    await injectFault(stack, { route: 'create', kind: 'delay', delayMs: 2_000 });
    const pending = start();
    await faultTaken();
    await victim.kill9();

    expect((await history()).inDoubt).toEqual([
      expect.objectContaining({ action: 'Create', answeredStatus: null, podId: null }),
    ]);
    await eventually(async () => ((await live()).length === 1 ? true : undefined), 30_000, 'the pod placed');

    await waker();
    const answer = await pending;

    expect(answer.status).toBe(200);
    expect(await simWrites(stack)).toEqual(['POST /pods']);
    const [placed] = await live();
    expect(answer.body).toMatchObject({ podId: placed.id });
    const { actions, inDoubt } = await history();
    expect(inDoubt).toEqual([]);
    expect(actions).toContainEqual(
      expect.objectContaining({
        action: 'Create',
        podId: placed.id,
        ok: true,
        detail: 'reconciled: an interrupted create placed this pod',
      }),
    );
  });
});
