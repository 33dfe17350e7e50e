import { eventually } from '../support/app-process';
import { Stack } from '../support/stack';
import { FAST_TIMINGS, resetSim, simCalls, simPods, simWrites } from '../support/sim-admin';

type Body = Record<string, unknown>;
type History = { actions: Body[]; wakes: Body[] };

const MAX_POLLS = 5;
// Far longer than the slow pod is kept booting below, short enough to watch it fire.
const BOOT_GRACE_MINUTES = 0.3;
const EVENT_DEADLINE_MS = 60_000;

/**
 * The seed's give-up rule: a wake that runs out of its polls while the pod it
 * created is still coming up ends Waiting (202) and leaves the pod to boot;
 * the idle monitor's boot grace stops it if it never becomes ready. A slow
 * host is never torn down and re-created, so never two pods billed.
 */
describe('a wake that gives up on a booting pod it created', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'giveup',
      wakers: 1,
      idleMonitors: 1,
      env: {
        WAKE_MAX_POLLS: String(MAX_POLLS),
        CHECK_SECONDS: '1',
        IDLE_MINUTES: '30',
        RUNPOD_BOOT_GRACE_MINUTES: String(BOOT_GRACE_MINUTES),
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });
  beforeEach(async () => {
    // A host that never finishes provisioning by itself: the spec decides when (or whether) it runs.
    await resetSim(stack, { timings: { ...FAST_TIMINGS, provisioningMs: 600_000 } });
  });

  const start = () => stack.api<Body>('POST', '/api/pods/qwen/start', { token: 'operator' });
  const history = async (): Promise<History> =>
    (await stack.api<History>('GET', '/api/pods/qwen/history')).body;
  const creates = async (): Promise<number> =>
    (await simCalls(stack)).filter((c) => c.method === 'POST' && c.path === '/pods').length;

  it('ends Waiting and leaves the pod booting; a second start joins that pod, the pod runs later: one create', async () => {
    const first = await start();

    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ outcome: 'Waiting', gpuId: 'NVIDIA RTX A6000', pricePerHour: 0.49 });
    const podId = String(first.body.podId);
    expect(String(first.body.message)).toContain(
      `pod ${podId} created on NVIDIA RTX A6000 at 0.49 USD/h is still Provisioning after ${MAX_POLLS} polls; ` +
        'left to boot, not terminated: boot grace stops it',
    );
    const recorded = (await history()).wakes.find((wake) => wake.attemptId === first.body.attemptId);
    expect(recorded).toMatchObject({ outcome: 'TimedOut', wakeOutcome: 'Waiting', podId });
    expect(String(recorded?.reason)).toContain('left to boot, not terminated');
    expect(await simPods(stack)).toEqual([expect.objectContaining({ id: podId, status: 'PROVISIONING' })]);
    expect(await simWrites(stack)).toEqual(['POST /pods']);

    // A retry while the pod still boots: a new wake, which waits on that pod and creates nothing.
    const second = await start();

    expect(second.status).toBe(202);
    expect(second.body).toMatchObject({ outcome: 'Waiting', podId });
    expect(second.body.attemptId).not.toBe(first.body.attemptId);
    expect(await simWrites(stack)).toEqual(['POST /pods']);

    // The slow host finishes: the pod runs and its model answers.
    await stack.simRequest('POST', `/_sim/pods/${podId}/status`, { status: 'RUNNING' });
    await eventually(
      async () => {
        const status = await stack.api<Body>('GET', '/api/pods/qwen');
        return status.body.isRunning === true && status.body.readySince !== null ? status.body : undefined;
      },
      EVENT_DEADLINE_MS,
      'the pod left to boot ready',
    );
    const third = await start();

    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({ outcome: 'AlreadyRunning', podId });
    expect(await creates()).toBe(1);
    expect(await simWrites(stack)).toEqual(['POST /pods']);
    expect(await simPods(stack)).toEqual([expect.objectContaining({ id: podId, status: 'RUNNING' })]);
    expect((await history()).actions.map((a) => `${String(a.action)} ${String(a.trigger)}`)).toEqual([
      'Create wake',
    ]);
  });

  it('a pod left to boot that never becomes ready is stopped by boot grace, never terminated by its wake', async () => {
    const answer = await start();

    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ outcome: 'Waiting' });
    const podId = String(answer.body.podId);
    const stop = await eventually(
      async () => (await history()).actions.find((a) => a.action === 'Stop' && a.podId === podId),
      EVENT_DEADLINE_MS,
      'the boot-grace stop of the pod left to boot',
    );

    expect(stop).toMatchObject({ trigger: 'boot-grace', ok: true });
    expect(await simWrites(stack)).toEqual(['POST /pods', `POST /pods/${podId}/action stop`]);
    expect(await creates()).toBe(1);
    expect(await simPods(stack)).toEqual([expect.objectContaining({ id: podId, status: 'EXITED' })]);
  });
});
