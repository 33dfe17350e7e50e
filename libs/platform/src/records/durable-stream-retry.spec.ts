import type Redis from 'ioredis';
import { RedisLink, captureLogs, type CapturedLogs, useTestRedis } from '@podwarden/testing';
import { RedisKeys } from '../redis/redis-keys';
import { ActionLog } from './action-log';
import type { ActionRecord } from './action-record';
import { actionRecordSchema } from './action-record.schema';
import { CREATE_ROW } from './testing/create-row';
import { DurableStream, type DurableStreamOptions } from './durable-stream';

const STREAM = { what: 'test write', lostEntryField: 'entry', lostEntryMessage: 'test entry NOT recorded' };

let link: RedisLink;
let through: Redis;
beforeEach(async () => {
  link = await RedisLink.start();
  through = await link.connect();
});
afterEach(async () => {
  through.disconnect();
  await link.close();
});
// After the link's hooks: jest runs one block's afterEach in order, so the link closes before the keys go.
const db = useTestRedis('durable-retry');
const KEYS = new RedisKeys(db.prefix);

const ROW = CREATE_ROW;

/** A stream through the link, with short bounds: one attempt waits 100 ms. */
function streamThrough(
  logs: CapturedLogs,
  bounds: Partial<DurableStreamOptions>,
): DurableStream<ActionRecord> {
  return new DurableStream<ActionRecord>(
    through,
    {
      keys: KEYS,
      logger: logs.logger,
      writeTimeoutMs: 100,
      ...STREAM,
      ...bounds,
    },
    actionRecordSchema,
  );
}

const rows = async () =>
  (await new ActionLog(db.redis, KEYS, captureLogs().logger).recent('qwen', 100)).reverse();

async function eventually(check: () => Promise<boolean>, deadlineMs = 20_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met before the deadline');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a durable record Redis did not take is kept and retried', () => {
  it('Redis down: the caller gets "pending" at once, the row lands once Redis is back, a Warning and no Error', async () => {
    const logs = captureLogs();
    const actions = new ActionLog(through, KEYS, logs.logger, 300);
    link.cut();

    const started = Date.now();
    expect(await actions.record(ROW)).toBe('pending');
    expect(Date.now() - started).toBeLessThan(2_000);
    await new Promise((r) => setTimeout(r, 700));
    expect(await rows()).toEqual([]);

    link.restore();
    await eventually(async () => (await rows()).length > 0);
    await new Promise((r) => setTimeout(r, 500));
    expect(await rows()).toEqual([ROW]);
    expect(logs.find('failed; kept in memory')).toEqual([
      expect.objectContaining({ level: 40, actionRecord: ROW }),
    ]);
    expect(logs.messages('error')).toEqual([]);
  });

  it('Redis stalled: attempts that time out and land late still leave exactly one row, claim and all', async () => {
    const logs = captureLogs();
    const actions = new ActionLog(through, KEYS, logs.logger, 200);
    const intent = {
      id: 'i-1',
      at: ROW.at,
      podName: 'qwen',
      action: 'Create' as const,
      podId: null,
      gpuId: null,
      pricePerHour: null,
      requestName: 'r',
      attemptId: 'a',
      fenceToken: null,
      answeredStatus: null,
    };
    link.hold();

    expect(await actions.record(ROW, { mode: 'claim', intent })).toBe('pending');
    // Several retries go out while it is stalled, each timing out with its command still queued.
    await new Promise((r) => setTimeout(r, 1_500));
    link.restore();

    await eventually(async () => (await rows()).length > 0);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await rows()).toEqual([ROW]);
    expect(await db.redis.exists(KEYS.intentClosed('i-1'))).toBe(1);
  });

  it('gives up after its bound: the whole entry at Error', async () => {
    const logs = captureLogs();
    const stream = streamThrough(logs, { giveUpAfterMs: 600, maxBackoffMs: 100 });
    link.cut();

    expect(await stream.append(KEYS.actionLog('qwen'), ROW)).toBe('pending');
    await eventually(async () => logs.messages('error').length > 0, 5_000);

    expect(logs.find('test entry NOT recorded')).toEqual([
      expect.objectContaining({ level: 50, entry: ROW }),
    ]);
    link.restore();
    await new Promise((r) => setTimeout(r, 400));
    expect(await rows()).toEqual([]);
  });

  it('holds a bounded number of entries: past it the oldest is given up at Error', async () => {
    const logs = captureLogs();
    const stream = streamThrough(logs, { maxPending: 2 });
    link.cut();

    for (const podId of ['p1', 'p2', 'p3']) await stream.append(KEYS.actionLog('qwen'), { ...ROW, podId });
    expect(logs.find('test entry NOT recorded')).toEqual([
      expect.objectContaining({ entry: { ...ROW, podId: 'p1' }, err: 'too many entries pending' }),
    ]);

    link.restore();
    await eventually(async () => (await rows()).length === 2);
    expect((await rows()).map((r) => r.podId)).toEqual(['p2', 'p3']);
    await stream.close();
  });

  it('at shutdown, entries still pending get one last try, then go to the log at Error', async () => {
    const logs = captureLogs();
    const actions = new ActionLog(through, KEYS, logs.logger, 100);
    link.cut();
    await actions.record(ROW);

    await actions.beforeApplicationShutdown();

    expect(logs.find('NOT recorded durably')).toEqual([
      expect.objectContaining({
        level: 50,
        actionRecord: ROW,
        err: expect.stringContaining('shutting down'),
      }),
    ]);
  });
});
