import { captureLogs, useTestRedis } from '@podwarden/testing';
import { RedisKeys } from '../redis/redis-keys';
import { ActionLog } from './action-log';
import type { ActionRecord } from './action-record';
import { ReadyLog } from './ready-log';
import { WakeHistory } from './wake-history';
import type { WakeCompletedRecord } from './wake-record';

const db = useTestRedis('stored-rows');
const KEYS = new RedisKeys(db.prefix);

const CREATE: ActionRecord = {
  at: '2026-12-06T10:00:00.000Z',
  podName: 'qwen',
  action: 'Create',
  podId: 'pod-1',
  gpuId: 'NVIDIA A40',
  pricePerHour: 0.44,
  httpStatus: 201,
  ok: true,
  trigger: 'wake',
  detail: null,
};
const COMPLETED: Omit<WakeCompletedRecord, 'type'> = {
  podName: 'qwen',
  attemptId: 'job-1',
  requestedAt: '2026-12-06T10:00:00.000Z',
  requestedBy: 'cockpit',
  completedAt: '2026-12-06T10:01:00.000Z',
  outcome: 'Succeeded',
  wakeOutcome: 'Created',
  reason: 'created pod-1',
  podId: 'pod-1',
  gpuId: 'NVIDIA A40',
  pricePerHour: 0.44,
  candidatesConsidered: 3,
  lastProviderStatus: 201,
};

/** Rows read back from the durable streams are checked, never cast: a row of another shape is skipped. */
describe('durable stream rows read back (real Redis)', () => {
  const logger = captureLogs().logger;

  const addRaw = (key: string, entry: string) => db.redis.xadd(key, '*', 'entry', entry);

  it('an action row written by the log reads back as written', async () => {
    const log = new ActionLog(db.redis, KEYS, logger);
    await log.record(CREATE);
    await log.record({
      ...CREATE,
      action: 'KeepAlive',
      podId: null,
      gpuId: null,
      pricePerHour: null,
      httpStatus: 0,
    });
    expect(await log.recent('qwen', 10)).toEqual([
      { ...CREATE, action: 'KeepAlive', podId: null, gpuId: null, pricePerHour: null, httpStatus: 0 },
      CREATE,
    ]);
  });

  it.each<[string, string]>([
    ['not JSON', '{"at":'],
    ['an unknown action', JSON.stringify({ ...CREATE, action: 'Launch' })],
    ['a status that is text', JSON.stringify({ ...CREATE, httpStatus: '201' })],
    ['no trigger', JSON.stringify({ ...CREATE, trigger: undefined })],
    ['an unknown trigger', JSON.stringify({ ...CREATE, trigger: 'whim' })],
    ['no pod id at all', JSON.stringify({ ...CREATE, podId: undefined })],
    ['a JSON array', '[]'],
  ])('an action row with %s is skipped, the rows around it kept', async (_why, raw) => {
    const log = new ActionLog(db.redis, KEYS, logger);
    await log.record(CREATE);
    await addRaw(KEYS.actionLog('qwen'), raw);
    await log.record({ ...CREATE, action: 'Stop', trigger: 'idle' });
    expect(await log.recent('qwen', 10)).toEqual([{ ...CREATE, action: 'Stop', trigger: 'idle' }, CREATE]);
  });

  it('an action row whose GPU, price or detail has a wrong type keeps the call, those fields absent', async () => {
    await addRaw(
      KEYS.actionLog('qwen'),
      JSON.stringify({ ...CREATE, gpuId: 7, pricePerHour: 'cheap', detail: {} }),
    );
    expect(await new ActionLog(db.redis, KEYS, logger).recent('qwen', 10)).toEqual([
      { ...CREATE, gpuId: null, pricePerHour: null, detail: null },
    ]);
  });

  it('a ready edge round-trips; one without its time is skipped', async () => {
    const ready = new ReadyLog(db.redis, KEYS, logger);
    const edge = { at: '2026-12-06T10:02:00.000Z', podId: 'pod-1', gpuId: 'NVIDIA A40', pricePerHour: 0.44 };
    await ready.record('qwen', edge);
    await addRaw(KEYS.readyLog('qwen'), JSON.stringify({ ...edge, at: undefined }));
    expect(await ready.recent('qwen', 10)).toEqual([edge]);
  });

  it('a wake record round-trips; a Completed row with an unknown outcome is never the last wake', async () => {
    const history = new WakeHistory(db.redis, KEYS, logger);
    await history.requested({
      podName: 'qwen',
      attemptId: 'job-1',
      requestedAt: COMPLETED.requestedAt,
      requestedBy: 'cockpit',
    });
    await history.completed(COMPLETED);
    await addRaw(
      KEYS.wakeHistory('qwen'),
      JSON.stringify({ ...COMPLETED, type: 'Completed', attemptId: 'job-2', outcome: 'Maybe' }),
    );
    await addRaw(
      KEYS.wakeHistory('qwen'),
      JSON.stringify({ ...COMPLETED, type: 'Finished', attemptId: 'job-3' }),
    );
    expect(await history.last('qwen')).toEqual({ type: 'Completed', ...COMPLETED });
    expect((await history.recent('qwen', 5)).map((a) => a.attemptId)).toEqual(['job-1']);
  });
});
