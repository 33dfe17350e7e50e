import { Queue, QueueEvents } from 'bullmq';
import Redis from 'ioredis';
import { WAKE_JOB, wakeDeduplicationId } from '@podwarden/platform';
import { eventually } from '../support/app-process';
import { clearSimCalls, resetSim, simCalls, simPods, simWrites } from '../support/sim-admin';
import { Stack, VOLUME_ID } from '../support/stack';
import { REDIS_URL } from '../support/test-env';

/**
 * The singleton gate across processes: many gateway requests, direct queue
 * producers and two waker replicas still make one RunPod write per wake; a
 * waker killed mid-wake hands its job back and the re-run adopts the pod the
 * first run created.
 */
describe('the singleton gate and crash safety', () => {
  let stack: Stack;
  let queue: Queue;
  let events: QueueEvents;
  const connections: Redis[] = [];

  beforeAll(async () => {
    stack = await Stack.start({ name: 'gate', wakers: 2, env: { WAKE_JOB_LOCK_MS: '2000' } });
    const producer = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    const listener = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    connections.push(producer, listener);
    queue = new Queue('wake', { connection: producer, prefix: stack.prefix });
    events = new QueueEvents('wake', { connection: listener, prefix: stack.prefix });
    await events.waitUntilReady();
  });
  afterAll(async () => {
    await events?.close();
    await queue?.close();
    for (const c of connections) c.disconnect();
    await stack?.stop();
  });

  const start = () =>
    stack.api<Record<string, unknown>>('POST', '/api/pods/qwen/start', { token: 'operator' });

  it('50 concurrent starts, two direct producers and two waker replicas: one create, one attempt id', async () => {
    await resetSim(stack, {
      timings: { provisioningMs: 1500, startingMs: 500, gpuAttachMs: 100, modelLoadMs: 500 },
    });
    const starts = Array.from({ length: 50 }, () => start());
    const direct = [
      queue.add('wake', { podName: 'qwen', requestedBy: 'other-service' }),
      queue.add('wake', { podName: 'QWEN' }),
    ];
    const answers = await Promise.all(starts);
    const directJobs = await Promise.all(direct);
    const directResults = await Promise.all(directJobs.map((job) => job.waitUntilFinished(events, 30_000)));

    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((a) => a.body.outcome))).toEqual(new Set(['Created']));
    const attemptIds = new Set(answers.map((a) => a.body.attemptId));
    expect(attemptIds.size).toBe(1);
    // Whichever job reached a waker first ran the wake; every other one joined it.
    const [attemptId] = [...attemptIds];
    for (const [i, result] of directResults.entries()) {
      expect(result).toMatchObject({ outcome: 'Created', attemptId });
      expect(result.joined).toBe(String(directJobs[i].id) !== attemptId);
    }
    expect(await simWrites(stack)).toEqual(['POST /pods']);
    const history = await stack.api<{ wakes: unknown[]; actions: unknown[] }>(
      'GET',
      '/api/pods/qwen/history',
    );
    expect(history.body.wakes).toHaveLength(1);
    expect(history.body.actions).toHaveLength(1);
  });

  it('after a wake completed, the next start runs a new wake (a new attempt id, no write: AlreadyRunning)', async () => {
    const first = await start();
    const second = await start();

    expect(first.body.outcome).toBe('AlreadyRunning');
    expect(second.body.outcome).toBe('AlreadyRunning');
    expect(second.body.attemptId).not.toBe(first.body.attemptId);
  });

  it("after a failed job that held the gateway's deduplication id, the next start runs a new wake", async () => {
    // Enqueued the way the gateway enqueues a start, so while it is waiting or active a start joins it.
    const bad = await queue.add(
      WAKE_JOB,
      { podName: 42 },
      { deduplication: { id: wakeDeduplicationId(VOLUME_ID) }, attempts: 1 },
    );
    await expect(bad.waitUntilFinished(events, 10_000)).rejects.toThrow(/podName must be a non-empty string/);
    await clearSimCalls(stack);
    const next = await start();

    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ outcome: 'AlreadyRunning' });
    expect(next.body.attemptId).not.toBe(bad.id);
    // The new wake ran: it read the volume (a joined start would have made no call) and left its own record.
    expect((await simCalls(stack)).map((c) => `${c.method} ${c.path}`)).toContain('GET /pods');
    const history = await stack.api<{ wakes: Array<Record<string, unknown>> }>(
      'GET',
      '/api/pods/qwen/history',
    );
    expect(history.body.wakes[0]).toMatchObject({
      attemptId: next.body.attemptId,
      outcome: 'Succeeded',
      wakeOutcome: 'AlreadyRunning',
    });
  });

  it('an invalid payload fails the job with a clear reason and makes no RunPod call', async () => {
    await resetSim(stack);
    const jobs = await Promise.all([
      queue.add('wake', { podName: 'nobody-configured-this' }),
      queue.add('wake', null as unknown as object),
      queue.add('wake', { podName: 'qwen', requestedBy: 7 }),
      queue.add('wake', { podName: 'qwen', priority: 'high' }),
    ]);
    const reasons = await Promise.all(
      jobs.map((job) =>
        job.waitUntilFinished(events, 10_000).then(
          () => 'completed',
          (e: Error) => e.message,
        ),
      ),
    );

    expect(reasons[0]).toMatch(/unknown pod name "nobody-configured-this"/);
    expect(reasons[1]).toMatch(/invalid wake payload/);
    expect(reasons[2]).toMatch(/requestedBy must be a string/);
    expect(reasons[3]).toBe('invalid wake payload: property priority should not exist');
    expect(await simWrites(stack)).toEqual([]);
  });

  it('kill -9 of the waker between create and RUNNING: the job is re-delivered and the re-run adopts the pod, never a second create', async () => {
    await resetSim(stack, {
      timings: { provisioningMs: 6000, startingMs: 500, gpuAttachMs: 100, modelLoadMs: 500 },
    });
    // One waker holds the job when it dies; stop the other so the victim is certain to take it.
    await stack.wakers[1].stop();
    const pending = start();
    await eventually(
      async () => ((await simWrites(stack)).includes('POST /pods') ? true : undefined),
      10_000,
      'the create',
    );
    await stack.wakers[0].kill9();
    const pods = await simPods(stack);
    expect(pods.map((p) => p.status)).toEqual(['PROVISIONING']);

    const survivor = await stack.startWaker();
    const answer = await pending;

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ podId: pods[0].id });
    expect(['AlreadyRunning', 'Created']).toContain(answer.body.outcome);
    expect(await simWrites(stack)).toEqual(['POST /pods']);
    expect((await simPods(stack)).map((p) => [p.id, p.status])).toEqual([[pods[0].id, 'RUNNING']]);
    expect(survivor.messages().some((m) => m.startsWith('wake '))).toBe(true);
  });
});
