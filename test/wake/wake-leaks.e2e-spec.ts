import { Stack } from '../support/stack';
import { FAST_TIMINGS, injectFault, resetSim, simPods, simWrites } from '../support/sim-admin';
import { eventually } from '../support/app-process';

type History = { actions: Array<Record<string, unknown>>; wakes: Array<Record<string, unknown>> };

/**
 * A wake never leaks a pod: what it created is checked against what it asked
 * for, and what it placed but will not serve is terminated by the wake itself.
 * The simulator places the faulty pods; the assertions read its own state.
 */
describe('a wake never leaks a pod it created', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ name: 'leak', wakers: 1 });
  });
  afterAll(async () => {
    await stack?.stop();
  });
  beforeEach(async () => {
    await resetSim(stack);
  });

  const start = () =>
    stack.api<Record<string, unknown>>('POST', '/api/pods/qwen/start', { token: 'operator' });
  const history = async (): Promise<History> =>
    (await stack.api<History>('GET', '/api/pods/qwen/history')).body;

  it.each([
    ['without our volume', { kind: 'no-volume' }, 'volume: expected vol-eu-ro-1, got none'],
    [
      'on another GPU',
      { kind: 'other-gpu', gpuId: 'NVIDIA L40S' },
      'gpu: expected NVIDIA RTX A6000, got NVIDIA L40S',
    ],
  ])('a create that lands %s: terminated by its wake, Failed naming the field', async (_, fault, named) => {
    await injectFault(stack, { route: 'create', ...fault });
    const answer = await start();

    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ outcome: 'Failed' });
    const podId = String((await history()).wakes[0].podId);
    expect(String(answer.body.detail)).toContain(named);
    expect(String(answer.body.detail)).toContain('terminated by this wake');
    expect(await simWrites(stack)).toEqual(['POST /pods', `DELETE /pods/${podId}`]);
    await eventually(
      async () => ((await billing(stack)).length === 0 ? true : undefined),
      30_000,
      'pod gone',
    );
    const recorded = await history();
    expect(recorded.actions[0]).toMatchObject({ action: 'Terminate', podId, ok: true, trigger: 'wake' });
    expect(recorded.wakes[0]).toMatchObject({ outcome: 'Failed', podId });
    expect(String(recorded.wakes[0].reason)).toContain(named);
  });

  it('a created pod that goes to ERROR is terminated by its wake, and the answer and history say so', async () => {
    // A slow boot keeps the new pod PROVISIONING until the test has put it in ERROR.
    await resetSim(stack, { timings: { ...FAST_TIMINGS, provisioningMs: 600_000 } });
    const answered = start();
    const podId = await eventually(
      async () => {
        const pods = await simPods(stack);
        return pods.length === 1 ? String(pods[0].id) : undefined;
      },
      30_000,
      'the pod the wake created',
    );
    await stack.simRequest('POST', `/_sim/pods/${podId}/status`, { status: 'ERROR' });
    const answer = await answered;

    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ outcome: 'Failed' });
    expect(String(answer.body.detail)).toMatch(
      new RegExp(
        `^new pod ${podId} reached Error with \\d GPU\\(s\\); terminated by this wake; not retrying$`,
      ),
    );
    expect(await simWrites(stack)).toEqual(['POST /pods', `DELETE /pods/${podId}`]);
    const recorded = await history();
    expect(recorded.actions[0]).toMatchObject({ action: 'Terminate', podId, ok: true, trigger: 'wake' });
    expect(recorded.wakes[0]).toMatchObject({ outcome: 'Failed', podId });
    expect(String(recorded.wakes[0].reason)).toContain('terminated by this wake');
    await eventually(
      async () => ((await billing(stack)).length === 0 ? true : undefined),
      30_000,
      'pod gone',
    );
  });
});

/** Pods the simulator still bills for (anything not TERMINATED). */
async function billing(stack: Stack): Promise<unknown[]> {
  return (await simPods(stack)).filter((pod) => pod.status !== 'TERMINATED');
}
