import { Queue, QueueEvents } from 'bullmq';
import fc from 'fast-check';
import Redis from 'ioredis';
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
    // A short lock: a job BullMQ itself cannot parse is only failed by the stall check.
    stack = await Stack.start({
      name: 'hostile-queue',
      wakers: 1,
      gateway: false,
      env: { WAKE_JOB_LOCK_MS: '2000' },
    });
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
    const endings = await Promise.all(
      jobs.map((job) =>
        job.waitUntilFinished(events, 60_000).then(
          () => 'completed',
          (e: Error) => e.message,
        ),
      ),
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

  it('a job whose stored data is not JSON (written straight into Redis) never reaches a RunPod call', async () => {
    await clearSimCalls(stack);
    const job = await queue.add('wake', { podName: 'placeholder' }, { delay: 60_000 });
    await connections[0].hset(`${stack.prefix}:wake:${job.id}`, 'data', '{"podName":"qwen",');
    await job.promote();
    // BullMQ cannot build the Job, so our processor never runs: the worker reports an error, the
    // lock lapses and the stall check hands the job back, again and again (see docs/reliability.md).
    const waker = stack.wakers[0];
    const parseErrors = () => waker.lines.filter((l) => l.msg === 'wake worker error').length;
    await waker.waitForLine(() => parseErrors() >= 3, 60_000, 'three re-deliveries of the unparseable job');
    expect(await job.getState()).not.toBe('completed');
    expect(await simCalls(stack)).toEqual([]);
    expect(waker.running).toBe(true);
    await queue.obliterate({ force: true });
  });
});
