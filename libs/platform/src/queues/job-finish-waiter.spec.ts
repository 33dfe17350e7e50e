import { Queue, QueueEvents, Worker } from 'bullmq';
import { TEST_REDIS_URL, deletePrefix, uniqueTestPrefix } from '@podwarden/testing';
import { JobFinishWaiter } from './job-finish-waiter';

const connection = { url: TEST_REDIS_URL, maxRetriesPerRequest: null };

describe(JobFinishWaiter.name, () => {
  const prefix = uniqueTestPrefix('finish-waiter');
  let queue: Queue;
  let events: QueueEvents;
  let worker: Worker | undefined;
  let sut: JobFinishWaiter;

  beforeEach(async () => {
    queue = new Queue('jobs', { connection, prefix });
    events = new QueueEvents('jobs', { connection, prefix });
    await events.waitUntilReady();
    sut = new JobFinishWaiter(queue, events);
  });
  afterEach(async () => {
    await worker?.close();
    worker = undefined;
    await events.close();
    await queue.close();
    await deletePrefix(prefix);
  });

  function startWorker(): void {
    worker = new Worker(
      'jobs',
      async (job) => {
        if (job.data.fail) throw new Error(`refused ${job.data.n}`);
        return { n: job.data.n };
      },
      { connection, prefix, concurrency: 8 },
    );
  }

  it('thirty waits at once: each gets its own ending, through listeners added once', async () => {
    const jobs = await queue.addBulk(
      Array.from({ length: 30 }, (_, n) => ({ name: 'job', data: { n, fail: n % 3 === 0 } })),
    );
    const endings = Promise.all(jobs.map((job) => sut.wait(String(job.id), 30_000)));
    expect(events.listenerCount('completed')).toBe(1);
    expect(events.listenerCount('failed')).toBe(1);
    expect(queue.listenerCount('closing')).toBe(0);
    startWorker();

    expect(await endings).toEqual(
      jobs.map((_, n) =>
        n % 3 === 0 ? { kind: 'failed', reason: `refused ${n}` } : { kind: 'completed', value: { n } },
      ),
    );
  });

  it('a job that finished before the wait answers from its stored state', async () => {
    startWorker();
    const job = await queue.add('job', { n: 7, fail: false });
    await job.waitUntilFinished(events, 30_000);

    expect(await sut.wait(String(job.id), 30_000)).toEqual({ kind: 'completed', value: { n: 7 } });
  });

  it('a job gone from the queue is a failure, not a wait until the timeout', async () => {
    expect(await sut.wait('no-such-job', 30_000)).toEqual({
      kind: 'failed',
      reason: 'job no-such-job is no longer in the queue',
    });
  });

  it('a job that does not finish in time rejects the wait', async () => {
    const job = await queue.add('job', { n: 1, fail: false });

    await expect(sut.wait(String(job.id), 50)).rejects.toThrow(`job ${job.id} did not finish within 50 ms`);
  });
});
