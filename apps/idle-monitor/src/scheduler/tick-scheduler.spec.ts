import { Queue } from 'bullmq';
import { IDLE_TICK_QUEUE, IDLE_TICK_SCHEDULER_ID } from '@podwarden/platform';
import {
  RedisLink,
  captureLogs,
  connectTestRedis,
  deleteKeysUnder,
  testConfig,
  uniqueTestPrefix,
  TEST_REDIS_URL,
} from '@podwarden/testing';
import { TickScheduler, type TickSchedulerQueue } from './tick-scheduler';

const redis = connectTestRedis();
const prefix = uniqueTestPrefix('tick-scheduler');
const config = testConfig({ CHECK_SECONDS: '7', QUEUE_PREFIX: prefix });
const queue = new Queue(IDLE_TICK_QUEUE, { connection: { url: TEST_REDIS_URL }, prefix });

afterAll(async () => {
  await queue.close();
  await deleteKeysUnder(redis, prefix);
  await redis.quit();
});
beforeEach(() => deleteKeysUnder(redis, prefix));

function subject(on: TickSchedulerQueue = queue) {
  const logs = captureLogs();
  return { sut: new TickScheduler({ queue: on, config, logger: logs.logger }), logs };
}

/** The scheduler's next run and the state of its job, straight from BullMQ. */
async function stored(): Promise<{ every: number | undefined; nextJobState: string } | null> {
  const scheduler = await queue.getJobScheduler(IDLE_TICK_SCHEDULER_ID);
  if (!scheduler) return null;
  const nextJobState = await queue.getJobState(`repeat:${IDLE_TICK_SCHEDULER_ID}:${scheduler.next}`);
  return { every: scheduler.every ?? undefined, nextJobState };
}

describe(TickScheduler.name, () => {
  it('upsert creates one scheduler every CHECK_SECONDS, its first tick due at once; presence reads it', async () => {
    const { sut } = subject();
    expect(await sut.presence()).toBe('missing');
    await sut.upsert();
    expect(await stored()).toEqual({ every: 7000, nextJobState: 'waiting' });
    expect(await sut.presence()).toBe('present');
  });

  it('an emptied Redis: ensure restores the scheduler, counts it and says so once at Warning with the cause', async () => {
    const { sut, logs } = subject();
    await sut.upsert();
    await deleteKeysUnder(redis, prefix);
    expect(await sut.presence()).toBe('missing');

    expect(await sut.ensure('reconnect')).toBe('present');
    // A scheduler created afresh ticks at once: the first tick after the loss is not a whole interval away.
    expect(await stored()).toEqual({ every: 7000, nextJobState: 'waiting' });
    expect(sut.restored).toBe(1);
    expect(logs.messages('warn')).toEqual([
      'idle tick scheduler was missing from Redis (emptied, flushed or failed over); restored',
    ]);
    expect(logs.find('restored')[0]).toMatchObject({ cause: 'reconnect', checkSeconds: 7 });
  });

  it('a scheduler whose next job is gone (it would never tick again) is missing, and ensure adds a next job', async () => {
    const { sut } = subject();
    await sut.upsert();
    const scheduler = await queue.getJobScheduler(IDLE_TICK_SCHEDULER_ID);
    // BullMQ refuses to remove a scheduler's job; only keys lost in Redis itself (a partial loss) do this.
    const jobId = `repeat:${IDLE_TICK_SCHEDULER_ID}:${scheduler!.next}`;
    await redis.del(`${prefix}:${IDLE_TICK_QUEUE}:${jobId}`);
    await redis.lrem(`${prefix}:${IDLE_TICK_QUEUE}:wait`, 0, jobId);
    expect((await stored())?.nextJobState).toBe('unknown');
    expect(await sut.presence()).toBe('missing');

    expect(await sut.ensure('timer')).toBe('present');
    expect((await stored())?.nextJobState).toBe('delayed');
    expect(sut.restored).toBe(1);
  });

  it('a present scheduler is left alone: nothing rewritten, nothing counted or logged', async () => {
    const { sut, logs } = subject();
    await sut.upsert();
    const before = await queue.getJobScheduler(IDLE_TICK_SCHEDULER_ID);
    const countsBefore = await queue.getJobCounts();

    expect(await sut.ensure('timer')).toBe('present');
    expect(await queue.getJobScheduler(IDLE_TICK_SCHEDULER_ID)).toEqual(before);
    expect(await queue.getJobCounts()).toEqual(countsBefore);
    expect(sut.restored).toBe(0);
    expect(logs.lines).toEqual([]);
  });

  it('Redis unreachable: unknown, never missing, within the read timeout, and no restore is tried', async () => {
    const link = await RedisLink.start();
    const cut = new Queue(IDLE_TICK_QUEUE, {
      connection: { host: '127.0.0.1', port: link.port, retryStrategy: () => 100 },
      prefix,
    });
    try {
      await cut.waitUntilReady();
      const { sut, logs } = subject(cut);
      link.cut();
      const startedAt = Date.now();
      expect(await sut.ensure('timer')).toBe('unknown');
      expect(Date.now() - startedAt).toBeLessThan(config.tuning.redisReadTimeoutMs + 1000);
      expect(await stored()).toBeNull();
      expect(logs.lines).toEqual([]);
    } finally {
      link.restore();
      await cut.close();
      await link.close();
    }
  });
});

/** A queue whose scheduler reads are scripted and whose writes fail or are counted: the paths Redis rarely takes. */
function scriptedQueue(nexts: Array<number | undefined>, jobState: string, upsert: () => Promise<unknown>) {
  const calls = { reads: 0, upserts: 0 };
  const fake = {
    getJobScheduler: () => Promise.resolve(scheduledAt(nexts[Math.min(calls.reads++, nexts.length - 1)])),
    getJobState: () => Promise.resolve(jobState),
    upsertJobScheduler: () => {
      calls.upserts += 1;
      return upsert();
    },
  } as unknown as TickSchedulerQueue;
  return { fake, calls };
}

function scheduledAt(next: number | undefined) {
  return next === undefined ? undefined : { key: IDLE_TICK_SCHEDULER_ID, name: 'idle-tick', next };
}

describe(`${TickScheduler.name} on scripted answers`, () => {
  it('a next job not found because a worker took it meanwhile (the scheduler moved on) is present: no restore', async () => {
    const { fake, calls } = scriptedQueue([1000, 8000], 'unknown', () => Promise.resolve());
    const { sut } = subject(fake);
    expect(await sut.ensure('timer')).toBe('present');
    expect(calls).toEqual({ reads: 2, upserts: 0 });
  });

  it('a restore Redis refuses leaves it missing, uncounted, and warns once per failing spell', async () => {
    let refuse = true;
    const { fake, calls } = scriptedQueue([undefined], 'unknown', () =>
      refuse ? Promise.reject(new Error('NOREPLICAS Not enough good replicas to write.')) : Promise.resolve(),
    );
    const { sut, logs } = subject(fake);
    expect(await sut.ensure('timer')).toBe('missing');
    expect(await sut.ensure('timer')).toBe('missing');
    expect(calls.upserts).toBe(2);
    expect(sut.restored).toBe(0);
    expect(logs.messages('warn')).toEqual(['idle tick scheduler missing and not restored']);
    expect(logs.lines[0]).toMatchObject({
      cause: 'timer',
      err: 'NOREPLICAS Not enough good replicas to write.',
    });

    refuse = false;
    expect(await sut.ensure('timer')).toBe('present');
    expect(sut.restored).toBe(1);
    refuse = true;
    expect(await sut.ensure('timer')).toBe('missing');
    expect(logs.messages('warn')).toHaveLength(3);
  });

  it('a restore that hangs is bounded by the write timeout', async () => {
    const { fake } = scriptedQueue([undefined], 'unknown', () => new Promise(() => undefined));
    const { sut } = subject(fake);
    const startedAt = Date.now();
    expect(await sut.ensure('timer')).toBe('missing');
    expect(Date.now() - startedAt).toBeLessThan(config.tuning.redisWriteTimeoutMs + 1000);
  });
});
