import { eventually } from '../support/app-process';
import { FAST_TIMINGS, injectFault, resetSim, seedPod, simPods, simWrites } from '../support/sim-admin';
import { Stack } from '../support/stack';

type History = { actions: Array<Record<string, unknown>>; wakes: Array<Record<string, unknown>> };

/**
 * The fenced wake gate across real processes: an operator's stop wins over the
 * wake in flight at each of its steps, and a waker that stalls past its lock
 * makes no RunPod write once a second waker has taken its job.
 */
describe('the fenced wake: operator stops and stalled wakers', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ name: 'fence', wakers: 1, env: { WAKE_JOB_LOCK_MS: '1500' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });
  beforeEach(async () => {
    await resetSim(stack);
  });

  const start = () =>
    stack.api<Record<string, unknown>>('POST', '/api/pods/qwen/start', { token: 'operator' });
  const stop = () => stack.api<Record<string, unknown>>('POST', '/api/pods/qwen/stop', { token: 'operator' });
  const history = async (): Promise<History> =>
    (await stack.api<History>('GET', '/api/pods/qwen/history')).body;
  const writesInclude = (write: string) =>
    eventually(async () => ((await simWrites(stack)).includes(write) ? true : undefined), 30_000, write);
  const stoppedWake = () =>
    eventually(
      async () => {
        const wake = (await history()).wakes[0];
        return wake?.type === 'Completed' || wake?.completedAt ? wake : undefined;
      },
      30_000,
      'the wake completed',
    );
  const billing = async () =>
    (await simPods(stack)).filter((p) => !['EXITED', 'TERMINATED'].includes(p.status));

  it('a stop after the start call: the wake ends Failed "stopped by operator", no write after the stop', async () => {
    await resetSim(stack, { timings: { ...FAST_TIMINGS, startingMs: 600_000 } });
    const podId = await seedPod(stack, { status: 'EXITED' });
    const answered = start();
    await writesInclude(`POST /pods/${podId}/action start`);

    expect((await stop()).status).toBe(200);
    const answer = await answered;

    expect(answer.body).toMatchObject({ outcome: 'Failed' });
    expect(String(answer.body.detail)).toContain('stopped by operator');
    expect(await stoppedWake()).toMatchObject({ outcome: 'Failed' });
    expect(await simWrites(stack)).toEqual([
      `POST /pods/${podId}/action start`,
      `POST /pods/${podId}/action stop`,
    ]);
    expect(await billing()).toEqual([]);
  });

  it('a stop between create and RUNNING: the created pod is stopped, the wake writes nothing more', async () => {
    await resetSim(stack, { timings: { ...FAST_TIMINGS, provisioningMs: 600_000 } });
    const answered = start();
    await writesInclude('POST /pods');
    const [created] = await simPods(stack);

    expect((await stop()).status).toBe(200);
    const answer = await answered;

    expect(String(answer.body.detail)).toContain('stopped by operator');
    expect(await simWrites(stack)).toEqual(['POST /pods', `POST /pods/${created.id}/action stop`]);
    expect(await billing()).toEqual([]);
  });

  it('a stop during a terminate: the terminate in flight completes, the next one is never sent', async () => {
    const serving = await seedPod(stack, { status: 'RUNNING' });
    const stale1 = await seedPod(stack, { status: 'EXITED' });
    const stale2 = await seedPod(stack, { status: 'EXITED' });
    await injectFault(stack, { route: 'terminate', podId: stale1, kind: 'delay', delayMs: 2_000 });
    const answered = start();
    // The fault is taken when the terminate reaches the simulator: it is in flight now.
    await eventually(
      async () => {
        const faults = await stack.simRequest<{ faults: unknown[] }>('GET', '/_sim/faults');
        return faults.body.faults.length === 0 ? true : undefined;
      },
      30_000,
      'the terminate in flight',
    );

    expect((await stop()).status).toBe(200);
    const answer = await answered;

    expect(String(answer.body.detail)).toContain('stopped by operator');
    await writesInclude(`DELETE /pods/${stale1}`);
    const writes = await simWrites(stack);
    expect(writes).not.toContain(`DELETE /pods/${stale2}`);
    expect(writes.filter((w) => w.startsWith('DELETE') || w.endsWith('start'))).toEqual([
      `DELETE /pods/${stale1}`,
    ]);
    expect(writes).toContain(`POST /pods/${serving}/action stop`);
    expect(await billing()).toEqual([]);
  });

  it('a waker stalled past its lock while a second waker takes the job: the stale run makes no RunPod write', async () => {
    const first = stack.wakers[0];
    // The first waker is inside the catalog read when it stalls; the second starts only after.
    await injectFault(stack, { route: 'catalog', kind: 'delay', delayMs: 1_000 });
    const answered = start();
    await eventually(
      async () => {
        const faults = await stack.simRequest<{ faults: unknown[] }>('GET', '/_sim/faults');
        return faults.body.faults.length === 0 ? true : undefined;
      },
      30_000,
      'the catalog read in flight',
    );
    first.pause();
    try {
      const second = await stack.startWaker();
      const answer = await answered;
      expect(answer.body).toMatchObject({ outcome: 'Created' });
      await second.waitForMessage('wake Created', 30_000);
    } finally {
      first.resume();
    }
    await first.waitForMessage('wake fenced out', 30_000);

    expect(await simWrites(stack)).toEqual(['POST /pods']);
    expect((await simPods(stack)).filter((p) => p.status !== 'TERMINATED')).toHaveLength(1);
  });
});
