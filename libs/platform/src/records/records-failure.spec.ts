import Redis from 'ioredis';
import pino from 'pino';
import { RedisKeys } from '../redis/redis-keys';
import { ActionLog } from './action-log';
import type { ActionRecord } from './action-record';
import { WakeHistory } from './wake-history';

/** A recording failure never blocks or fails the action: the entry is kept for retrying, and logged in full. */
describe('durable records when Redis is unavailable', () => {
  let redis: Redis;
  let lines: Array<Record<string, unknown>>;
  const logger = () =>
    pino(
      { level: 'info' },
      { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    );

  beforeEach(() => {
    lines = [];
    // A real client with nothing behind it and no offline queue: every command fails at once.
    redis = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
  });
  afterEach(() => redis.disconnect());

  const entry: ActionRecord = {
    at: '2026-11-30T10:00:00.000Z',
    podName: 'qwen',
    action: 'Create',
    podId: 'pod-1',
    gpuId: 'NVIDIA RTX A6000',
    pricePerHour: 0.49,
    httpStatus: 201,
    ok: true,
    trigger: 'wake',
    detail: null,
  };

  it('ActionLog.record resolves, logs the whole entry at Warning and keeps it; at shutdown it goes to Error', async () => {
    const actions = new ActionLog(redis, new RedisKeys('pw'), logger());
    await expect(actions.record(entry)).resolves.toBe('pending');

    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, actionRecord: entry });
    await actions.beforeApplicationShutdown();
    expect(lines[1]).toMatchObject({ level: 50, actionRecord: entry });
    expect(String(lines[1].msg)).toContain('NOT recorded');
  });

  it('WakeHistory writes resolve and log the whole record; at shutdown at Error', async () => {
    const history = new WakeHistory(redis, new RedisKeys('pw'), logger());
    const requested = { podName: 'qwen', attemptId: 'a1', requestedAt: entry.at, requestedBy: null };
    await expect(history.requested(requested)).resolves.toBeUndefined();
    await history.beforeApplicationShutdown();

    expect(lines.map((l) => l.level)).toEqual([40, 50]);
    expect(lines[1]).toMatchObject({ wakeRecord: { type: 'Requested', ...requested } });
  });
});
