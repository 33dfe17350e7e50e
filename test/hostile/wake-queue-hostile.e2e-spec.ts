import { Queue, QueueEvents } from 'bullmq';
import fc from 'fast-check';
import Redis from 'ioredis';
import { JobFinishWaiter } from '@podwarden/platform';
import { leakedSecrets } from '../support/secret-forms';
import { clearSimCalls, resetSim, simCalls } from '../support/sim-admin';
import { Stack } from '../support/stack';
import { REDIS_URL } from '../support/test-env';

/**
 * Direct producers enqueueing hostile `wake` payloads: wrong types, unknown
 * and hostile names, extra and prototype keys, megabyte strings. Every job
 * fails with a short reason, no RunPod call is made, the waker stays up.
 */
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'priority', 'podId', 'volumeId'];

const hostileString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'qwen\u0000',
    'ｑｗｅｎ',
    'qwen/../qwen',
    '__proto__',
    'constructor',
    'x'.repeat(101),
  ),
  fc.constant('y'.repeat(1024 * 1024)),
);

const hostilePayload: fc.Arbitrary<unknown> = fc
  .oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.record(
      {
        podName: fc.oneof(hostileString, fc.jsonValue({ maxDepth: 2 })),
        requestedBy: fc.oneof(hostileString, fc.jsonValue({ maxDepth: 2 })),
      },
      { requiredKeys: [] },
    ),
    fc
      .tuple(fc.constantFrom(...HOSTILE_KEYS), fc.jsonValue({ maxDepth: 2 }))
      .map(([key, value]) =>
        JSON.parse(`{"podName":"qwen",${JSON.stringify(key)}:${JSON.stringify(value)}}`),
      ),
  )
  .filter((payload) => !isValidWake(payload));

/** The one shape that must run a wake: a known name (trimmed, any case) and at most a short requestedBy. */
function isValidWake(payload: unknown): boolean {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return false;
  const { podName, requestedBy, ...rest } = payload as Record<string, unknown>;
  return (
    typeof podName === 'string' &&
    podName.trim().toLowerCase() === 'qwen' &&
    Object.keys(rest).length === 0 &&
    (requestedBy === undefined || (typeof requestedBy === 'string' && requestedBy.length <= 200))
  );
}

describe('hostile payloads on the wake queue', () => {
  let stack: Stack;
  let queue: Queue;
  let events: QueueEvents;
  const connections: Redis[] = [];

  beforeAll(async () => {
    stack = await Stack.start({ name: 'hostile-queue', wakers: 1, gateway: false });
    const producer = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    const listener = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    connections.push(producer, listener);
    queue = new Queue('wake', { connection: producer, prefix: stack.prefix });
    events = new QueueEvents('wake', { connection: listener, prefix: stack.prefix });
    await events.waitUntilReady();
    await resetSim(stack);
    await clearSimCalls(stack);
  });
  afterAll(async () => {
    await events?.close();
    await queue?.close();
    for (const c of connections) c.disconnect();
    await stack?.stop();
  });

  it('150 generated hostile payloads: every job fails with a short reason and no RunPod call is made', async () => {
    const payloads = fc.sample(hostilePayload, {
      numRuns: 150,
      seed: Number(process.env.FC_SEED ?? Date.now() % 1e9),
    });
    const jobs = await queue.addBulk(payloads.map((data) => ({ name: 'wake', data: data as object })));
    // One waiter for 150 jobs: BullMQ's own wait adds a queue listener per job (a listener-leak warning).
    const finishes = new JobFinishWaiter(queue, events);
    const endings = await Promise.all(
      jobs.map(async (job) => {
        const finish = await finishes.wait(String(job.id), 60_000);
        return finish.kind === 'completed' ? 'completed' : finish.reason;
      }),
    );
    const wrong = endings
      .map((ending, i) => ({ ending, payload: JSON.stringify(payloads[i])?.slice(0, 200) }))
      .filter(
        ({ ending }) => !/^(invalid wake payload|unknown pod name)/.test(ending) || ending.length > 400,
      );
    expect(wrong).toEqual([]);
    expect(endings).toHaveLength(150);
    expect(leakedSecrets(endings.join('\n'))).toEqual([]);
    expect(await simCalls(stack)).toEqual([]);
    expect(stack.wakers[0].running).toBe(true);
  });

  it('a job whose stored data is not JSON (written straight into Redis) fails for good, with no RunPod call', async () => {
    await clearSimCalls(stack);
    const job = await queue.add('wake', { podName: 'placeholder' }, { delay: 60_000, attempts: 3 });
    await connections[0].hset(`${stack.prefix}:wake:${job.id}`, 'data', '{"podName":"qwen",');
    await job.promote();
    // BullMQ cannot build the Job, so our processor never runs; the worker's error handler fails it
    // instead of leaving it to come back after every stall check (see docs/reliability.md).
    await expect(job.waitUntilFinished(events, 60_000)).rejects.toThrow('stored job data is not JSON');
    expect(await queue.getJobState(String(job.id))).toBe('failed');
    const waker = stack.wakers[0];
    await waker.waitForLine(
      (l) => l.msg === `wake job ${job.id} failed: stored job data is not JSON`,
      30_000,
      'the failure logged',
    );
    expect(await simCalls(stack)).toEqual([]);
    expect(waker.running).toBe(true);
  });
});
