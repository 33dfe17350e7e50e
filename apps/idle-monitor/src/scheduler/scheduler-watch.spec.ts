import { EventEmitter } from 'node:events';
import { Queue } from 'bullmq';
import type { SchedulerPresence } from '@podwarden/policies';
import { IDLE_TICK_QUEUE } from '@podwarden/platform';
import {
  RedisLink,
  captureLogs,
  deleteKeysUnder,
  testConfig,
  useTestRedis,
  TEST_REDIS_URL,
} from '@podwarden/testing';
import { SchedulerWatch } from './scheduler-watch';
import { TickScheduler, type SchedulerCheckCause } from './tick-scheduler';

const HOUR_MS = 3_600_000;

/** A scheduler whose ensure records each cause and, while held, does not settle. */
function recordingScheduler() {
  const causes: SchedulerCheckCause[] = [];
  let release: (() => void) | null = null;
  let held = false;
  return {
    causes,
    hold: () => {
      held = true;
    },
    release: () => {
      held = false;
      release?.();
    },
    ensure: (cause: SchedulerCheckCause): Promise<SchedulerPresence> => {
      causes.push(cause);
      if (!held) return Promise.resolve('present');
      return new Promise((resolve) => (release = () => resolve('present')));
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe(SchedulerWatch.name, () => {
  it('checks off its own timer until stopped, and not after', async () => {
    const scheduler = recordingScheduler();
    const watch = new SchedulerWatch(scheduler, new EventEmitter(), 20);
    watch.start();
    await until(() => scheduler.causes.length >= 3, 'three timer checks');
    await watch.stop();
    const seen = scheduler.causes.length;
    await sleep(100);
    expect(scheduler.causes.length).toBe(seen);
    expect(new Set(scheduler.causes)).toEqual(new Set(['timer']));
  });

  it('checks when the connection is ready again; a stopped watch no longer listens', async () => {
    const scheduler = recordingScheduler();
    const connection = new EventEmitter();
    const watch = new SchedulerWatch(scheduler, connection, HOUR_MS);
    watch.start();
    connection.emit('ready');
    await until(() => scheduler.causes.length === 1, 'the reconnect check');
    expect(scheduler.causes).toEqual(['reconnect']);

    await watch.stop();
    expect(connection.listenerCount('ready')).toBe(0);
    connection.emit('ready');
    await sleep(50);
    expect(scheduler.causes).toEqual(['reconnect']);
  });

  it('one check at a time: causes arriving meanwhile run once right after, the latest cause', async () => {
    const scheduler = recordingScheduler();
    const watch = new SchedulerWatch(scheduler, new EventEmitter(), HOUR_MS);
    scheduler.hold();
    const first = watch.check('timer');
    void watch.check('timer');
    void watch.check('reconnect');
    expect(scheduler.causes).toEqual(['timer']);
    scheduler.release();
    await first;
    await until(() => scheduler.causes.length === 2, 'the pending check');
    await sleep(50);
    expect(scheduler.causes).toEqual(['timer', 'reconnect']);
    await watch.stop();
  });

  it('stop waits for the running check and drops the pending one', async () => {
    const scheduler = recordingScheduler();
    const watch = new SchedulerWatch(scheduler, new EventEmitter(), HOUR_MS);
    scheduler.hold();
    void watch.check('timer');
    void watch.check('reconnect');
    let stopped = false;
    const stopping = watch.stop().then(() => (stopped = true));
    await sleep(50);
    expect(stopped).toBe(false);
    scheduler.release();
    await stopping;
    await sleep(50);
    expect(scheduler.causes).toEqual(['timer']);
  });
});

describe(`${SchedulerWatch.name} on a real Redis`, () => {
  const db = useTestRedis('scheduler-watch', { keepKeysBetweenTests: true });
  const config = testConfig({ CHECK_SECONDS: '5', QUEUE_PREFIX: db.prefix });

  it('a Redis that comes back empty after a connection loss gets its scheduler back on reconnect, not at the next timer', async () => {
    const link = await RedisLink.start(TEST_REDIS_URL);
    const queue = new Queue(IDLE_TICK_QUEUE, {
      connection: { host: '127.0.0.1', port: link.port, retryStrategy: () => 100 },
      prefix: db.prefix,
    });
    const logs = captureLogs();
    const scheduler = new TickScheduler({ queue, config, logger: logs.logger });
    const watch = new SchedulerWatch(scheduler, await queue.backend.client, HOUR_MS);
    try {
      await scheduler.upsert();
      watch.start();
      link.cut();
      // What a restart without persistence leaves: nothing under the prefix.
      await deleteKeysUnder(db.redis, db.prefix);
      link.restore();

      await until(async () => (await scheduler.presence()) === 'present', 'the scheduler restored');
      expect(scheduler.restored).toBe(1);
      expect(logs.find('restored')).toEqual([expect.objectContaining({ cause: 'reconnect' })]);
    } finally {
      await watch.stop();
      await queue.close();
      await link.close();
    }
  });
});
