import { Queue, QueueEvents } from 'bullmq';
import Redis from 'ioredis';
import { JobFinishWaiter } from '@podwarden/platform';
import { AppProcess, eventually } from '../support/app-process';
import { freePort } from '../support/free-port';
import { clearSimCalls, resetSim, simPods, simWrites } from '../support/sim-admin';
import { Stack } from '../support/stack';
import { TEST_OPERATOR_TOKEN, TEST_WAKE_TOKEN } from '../support/test-env';
import { expectCleanAudit, settledAudit } from './support/audit';
import { chaosCase, startOn } from './support/chaos-case';
import { OwnedRedis } from './support/owned-redis';

/**
 * 500 concurrent starts spread over two gateways, two wakers and direct
 * queue producers: one RunPod write, one attempt, every caller told the same.
 */
describe('chaos: 500 concurrent starts', () => {
  let redis: OwnedRedis;
  let stack: Stack;
  let secondGateway: AppProcess;
  let secondUrl: string;
  let queue: Queue;
  let events: QueueEvents;
  const connections: Redis[] = [];

  beforeAll(async () => {
    redis = await OwnedRedis.start();
    stack = await Stack.start({
      name: 'chaos-burst',
      wakers: 2,
      // Polls for RUNNING cover the long provisioning below (400 × 100 ms).
      env: { REDIS_URL: redis.url, WAKE_REQUEST_WAIT_SECONDS: '5', WAKE_MAX_POLLS: '400' },
    });
    const port = await freePort();
    secondUrl = `http://127.0.0.1:${port}`;
    secondGateway = AppProcess.start('gateway', { ...stack.env, PORT: String(port) }, 'chaos-burst-gateway2');
    await eventually(
      async () => ((await fetch(`${secondUrl}/health/ready`)).ok ? true : undefined),
      20_000,
      'second gateway up',
    );
    for (let i = 0; i < 2; i++) connections.push(new Redis(redis.url, { maxRetriesPerRequest: null }));
    queue = new Queue('wake', { connection: connections[0], prefix: stack.prefix });
    events = new QueueEvents('wake', { connection: connections[1], prefix: stack.prefix });
    await events.waitUntilReady();
  });
  afterAll(async () => {
    await events?.close();
    await queue?.close();
    for (const c of connections) c.disconnect();
    await secondGateway?.stop();
    await stack?.stop();
    await redis?.stop();
  });

  chaosCase('500 starts over two gateways, two wakers and 20 direct jobs: one create', true, async () => {
    // The wake must outlast the burst: on two loaded cores one gateway was seen answering 4 s late,
    // and a start that arrives after the wake ended rightly runs a wake of its own (AlreadyRunning).
    await resetSim(stack, {
      timings: {
        provisioningMs: 15_000,
        startingMs: 500,
        gpuAttachMs: 100,
        modelLoadMs: 500,
        chatMs: 200,
        terminateMs: 0,
      },
    });
    await clearSimCalls(stack);
    const since = Date.now();
    const gateways = [stack.gatewayUrl, secondUrl];
    const tokens = [TEST_OPERATOR_TOKEN, TEST_WAKE_TOKEN];
    const starts = Array.from({ length: 500 }, (_, i) => startOn(gateways[i % 2], tokens[(i >> 1) % 2]));
    const direct = Array.from({ length: 20 }, (_, i) =>
      queue.add('wake', { podName: i % 2 === 0 ? 'qwen' : 'QWEN', requestedBy: 'chaos-producer' }),
    );
    const answers = await Promise.all(starts);
    const jobs = await Promise.all(direct);
    // One waiter for the 20 direct jobs: BullMQ's own wait adds a queue listener per job (a listener-leak warning).
    const finishes = new JobFinishWaiter(queue, events);
    const results = await Promise.all(
      jobs.map(async (job) => {
        const finish = await finishes.wait(String(job.id), 120_000);
        if (finish.kind === 'failed') throw new Error(finish.reason);
        return finish.value as Record<string, unknown>;
      }),
    );

    expect(answers).toHaveLength(500);
    // The one attempt: the one every 200 or 202 must name (the first such answer's, checked below for all).
    const attemptId = answers.find((a) => a.status === 200 || a.status === 202)?.body.attemptId;
    expect(attemptId).toEqual(expect.any(String));
    // Every caller got one of two answers. On two shared cores a burst this size can outlast
    // REDIS_WRITE_TIMEOUT_MS for some enqueues: those are shed (503, told when to retry), never a second wake.
    const verdict = (a: (typeof answers)[number]): string => {
      if ((a.status === 200 || a.status === 202) && a.body.attemptId === attemptId) return 'joined';
      if (
        a.status === 503 &&
        a.body.type === 'urn:podwarden:problem:queue-unavailable' &&
        /^[1-9]\d*$/.test(a.retryAfter ?? '')
      ) {
        return 'shed';
      }
      return `unexpected ${a.status} ${JSON.stringify(a.body).slice(0, 200)} retry-after=${a.retryAfter}`;
    };
    const verdicts = answers.map(verdict);
    expect(verdicts.filter((v) => v !== 'joined' && v !== 'shed').slice(0, 3)).toEqual([]);
    const joined = verdicts.filter((v) => v === 'joined').length;
    process.stderr.write(`chaos burst: ${joined} joined the wake, ${500 - joined} shed with 503\n`);
    // A direct job that reached a waker after the wake ended ran a wake of its own, which found the
    // pod running and wrote nothing.
    for (const result of results) {
      expect(result.attemptId === attemptId || result.outcome === 'AlreadyRunning').toBe(true);
    }
    // The one wake's job (its id is the attempt id) ran to its end: every write it would make is made.
    const wakeJob = await queue.getJob(String(attemptId));
    expect(wakeJob).toBeDefined();
    const wake = (await wakeJob!.waitUntilFinished(events, 120_000)) as { outcome: string };
    expect(wake.outcome).toBe('Created');
    expect((await simPods(stack)).map((p) => p.status)).toEqual(['RUNNING']);
    expect(await simWrites(stack)).toEqual(['POST /pods']);
    expect(secondGateway.running && stack.gateway?.running).toBe(true);
    expectCleanAudit(await settledAudit(stack, since));
  });
});
