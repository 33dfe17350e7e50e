import { Test, type TestingModule } from '@nestjs/testing';
import { Queue, QueueEvents, type Job } from 'bullmq';
import type Redis from 'ioredis';
import {
  PodwardenMetrics,
  RUNPOD_CLIENT,
  WAKE_JOB,
  WAKE_QUEUE,
  type WakeJobResult,
} from '@podwarden/platform';
import {
  TEST_REDIS_URL,
  captureLogs,
  connectTestRedis,
  deleteKeysUnder,
  found,
  uniqueTestPrefix,
  volumeWith,
  type CapturedLogs,
  type FakeRunPod,
} from '@podwarden/testing';
import { WakeProcessor } from './wake.processor';
import { WakerModule } from './waker.module';
import { deferred } from './wake/testing/deferred';
import { TEST_POD_NAME, testConfig } from './wake/testing/test-config';
import { scriptedRunPod } from './wake/testing/wake-run-harness';
import { throwsOnFirstObserve } from './wake/testing/wake-scenarios';

const SHUTDOWN_GRACE_MS = 300;

/** The waker's real module and BullMQ worker on a real Redis, under a prefix of this test's own. */
interface Waker {
  readonly module: TestingModule;
  readonly processor: WakeProcessor;
  readonly queue: Queue;
  readonly events: QueueEvents;
  readonly logs: CapturedLogs;
  readonly prefix: string;
  add(data?: object): Promise<Job>;
}

let redis: Redis;
const started: Waker[] = [];

beforeAll(() => {
  redis = connectTestRedis();
});

afterEach(async () => {
  for (const waker of started.splice(0)) {
    await waker.module.close().catch(() => undefined);
    await waker.events.close();
    await waker.queue.close();
    await deleteKeysUnder(redis, waker.prefix);
  }
});

afterAll(() => redis.quit());

async function startWaker(runpod: FakeRunPod, env: Record<string, string> = {}): Promise<Waker> {
  const prefix = uniqueTestPrefix('wake-processor');
  const config = testConfig({
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
    WAKE_CONCURRENCY: '3',
    WAKE_JOB_LOCK_MS: '4000',
    ...env,
  });
  const logs = captureLogs('debug');
  const module = await Test.createTestingModule({
    imports: [WakerModule.forRoot({ config, logger: logs.logger })],
  })
    .overrideProvider(RUNPOD_CLIENT)
    .useValue(runpod)
    .compile();
  await module.init();
  const connection = { url: TEST_REDIS_URL };
  const queue = new Queue(WAKE_QUEUE, { connection, prefix });
  const events = new QueueEvents(WAKE_QUEUE, { connection, prefix });
  await events.waitUntilReady();
  const waker: Waker = {
    module,
    processor: module.get(WakeProcessor),
    queue,
    events,
    logs,
    prefix,
    add: (data = { podName: TEST_POD_NAME }) => queue.add(WAKE_JOB, data, { attempts: 1 }),
  };
  started.push(waker);
  return waker;
}

/** A fake whose first observe of p1 blocks until released: a wake held open mid-run. */
function blockedWake(then = found('p1', 'Starting')) {
  const inside = deferred();
  const release = deferred();
  const runpod = scriptedRunPod()
    .onList(volumeWith(['p1']))
    .onObserve('p1', async () => {
      inside.resolve();
      await release.promise;
      return then;
    })
    .alwaysObserve('p1', then);
  return { runpod, inside, release };
}

/** The wake-queue job counter's line whose labels contain `label`, from the waker's registry. */
async function metricLine(waker: Waker, label: string): Promise<string | undefined> {
  const text = await waker.module.get(PodwardenMetrics).registry.metrics();
  return text
    .split('\n')
    .find(
      (line) =>
        line.startsWith('podwarden_jobs_total{') && line.includes('queue="wake"') && line.includes(label),
    );
}

async function settled(job: Job, events: QueueEvents): Promise<string> {
  return job.waitUntilFinished(events, 30_000).then(
    () => 'completed',
    (error: Error) => `failed: ${error.message}`,
  );
}

describe(WakeProcessor.name, () => {
  it('consumes the wake queue with the worker options from config and answers the job with the wake result', async () => {
    const runpod = scriptedRunPod()
      .onList(volumeWith(['p1']))
      .onObserve('p1', found('p1', 'Running', 1));
    const waker = await startWaker(runpod);

    const job = await waker.add();
    const result = (await job.waitUntilFinished(waker.events, 30_000)) as WakeJobResult;

    expect(result).toMatchObject({
      name: TEST_POD_NAME,
      attemptId: job.id,
      outcome: 'AlreadyRunning',
      podId: 'p1',
    });
    expect(runpod.calls).toEqual(['list', 'observe p1']);
    expect(waker.processor.worker.opts).toMatchObject({
      concurrency: 3,
      lockDuration: 4000,
      stalledInterval: 4000,
      maxStalledCount: 3,
      prefix: waker.prefix,
    });
    expect(waker.logs.messages('info')).toContain('waker consuming wake jobs');
  });

  it('cancelling an active wake job (Worker.cancelJob) stops it before its next RunPod call and fails the job', async () => {
    const { runpod, inside, release } = blockedWake();
    const waker = await startWaker(runpod);

    const job = await waker.add();
    await inside.promise;
    expect(waker.processor.worker.cancelJob(String(job.id), 'operator cancelled')).toBe(true);
    const callsAtCancel = [...runpod.calls];
    release.resolve();

    expect(await settled(job, waker.events)).toBe('failed: wake cancelled: operator cancelled');
    expect(callsAtCancel).toEqual(['list', 'observe p1']);
    expect(runpod.calls).toEqual(callsAtCancel);
    expect(await waker.queue.getJobState(String(job.id))).toBe('failed');
    expect(waker.logs.messages('warn')).toContain(
      `wake job ${job.id} failed: wake cancelled: operator cancelled`,
    );
  });

  it('an invalid payload fails the job with the validator message and makes no RunPod call', async () => {
    const runpod = scriptedRunPod();
    const waker = await startWaker(runpod);

    const job = await waker.add({ podName: TEST_POD_NAME, requestedBy: 7 });

    expect(await settled(job, waker.events)).toBe(
      'failed: invalid wake payload: requestedBy must be a string when present',
    );
    expect(runpod.calls).toEqual([]);
  });

  describe('a run that throws', () => {
    it("is put back, delayed, and runs again; the job completes with the next run's wake", async () => {
      const runpod = throwsOnFirstObserve();
      const waker = await startWaker(runpod);

      const job = await waker.add();
      const result = (await job.waitUntilFinished(waker.events, 30_000)) as WakeJobResult;

      expect(result).toMatchObject({ attemptId: job.id, outcome: 'AlreadyRunning', podId: 'p1' });
      expect(waker.logs.messages('warn')).toContain(
        'wake run 1 of at most 4 threw; putting the job back to run again',
      );
      expect(runpod.calls).toEqual(['list', 'observe p1', 'list', 'observe p1']);
      const finished = await waker.queue.getJob(String(job.id));
      expect(finished?.attemptsStarted).toBe(2);
      expect(finished?.attemptsMade).toBe(1);
      expect(await metricLine(waker, 'outcome="requeued"')).toMatch(/ 1$/);
    });

    it('one that throws on every run fails the job at its fourth run, recorded as an Exception once', async () => {
      const runpod = scriptedRunPod()
        .alwaysList(volumeWith(['p1']))
        .alwaysObserve('p1', () => {
          throw new Error('connection reset');
        });
      const waker = await startWaker(runpod);

      const job = await waker.add();

      expect(await settled(job, waker.events)).toBe('failed: connection reset');
      expect(runpod.calls.filter((call) => call === 'list')).toHaveLength(4);
      expect(waker.logs.messages('warn').filter((m) => m.includes('putting the job back'))).toEqual([
        'wake run 1 of at most 4 threw; putting the job back to run again',
        'wake run 2 of at most 4 threw; putting the job back to run again',
        'wake run 3 of at most 4 threw; putting the job back to run again',
      ]);
      expect(waker.logs.messages('error')).toEqual(['wake threw: connection reset']);
    });
  });

  describe('shutdown', () => {
    it('waits for a wake that finishes within SHUTDOWN_GRACE_MS: the job completes, nothing is handed back', async () => {
      const { runpod, inside, release } = blockedWake(found('p1', 'Running', 1));
      const waker = await startWaker(runpod, { SHUTDOWN_GRACE_MS: '30000' });
      const job = await waker.add();
      await inside.promise;

      const closing = waker.module.close();
      // Release only once shutdown has stopped the worker from taking jobs, so it is shutdown that waits.
      await until(() => waker.processor.worker.isPaused() || waker.processor.worker.closing !== undefined);
      release.resolve();
      await closing;

      expect(await waker.queue.getJobState(String(job.id))).toBe('completed');
      expect(waker.logs.find('handing its job back')).toEqual([]);
    });

    it('hands a wake still running after SHUTDOWN_GRACE_MS back without failing or cancelling it', async () => {
      const { runpod, inside, release } = blockedWake(found('p1', 'Running', 1));
      const waker = await startWaker(runpod);
      const job = await waker.add();
      await inside.promise;

      await waker.module.close();

      expect(waker.logs.messages('warn')).toContain(
        'a wake is still running at shutdown; handing its job back for re-delivery',
      );
      // Still active in Redis: its lock lapses and BullMQ re-delivers it to another waker.
      expect(await waker.queue.getJobState(String(job.id))).toBe('active');
      release.resolve();
      // The in-flight wake was not aborted: it went on to read what the observe answered.
      await until(() => waker.logs.find('wake AlreadyRunning').length > 0);
      expect(runpod.calls).toEqual(['list', 'observe p1']);
      // Its Completed record found Redis closed by the shutdown: logged in full instead (the re-run records its own).
      await until(() => waker.logs.find('wake history NOT recorded durably').length > 0);
      expect(waker.logs.find('cancelled')).toEqual([]);
    });
  });
});

/** Waits for a condition the code under test brings about, with a generous deadline. */
async function until(condition: () => boolean, deadlineMs = 20_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached before the deadline');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
