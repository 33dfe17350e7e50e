import { useTestRedis } from '@podwarden/testing';
import { RedisKeys } from '../redis/redis-keys';
import { BillableIntents, type BillableIntent } from './billable-intents';

const db = useTestRedis('billable-intents');
const KEYS = new RedisKeys(db.prefix);

const CREATE: BillableIntent = {
  id: 'intent-1',
  at: '2026-12-01T12:00:00.000Z',
  podName: 'qwen',
  action: 'Create',
  podId: null,
  gpuId: 'NVIDIA A40',
  pricePerHour: 0.44,
  requestName: 'podwarden-qwen-1',
  attemptId: 'job-1',
  fenceToken: 7,
  answeredStatus: null,
};
const STOP: BillableIntent = {
  ...CREATE,
  id: 'intent-2',
  at: '2026-12-01T12:05:00.000Z',
  action: 'Stop',
  podId: 'pod-1',
  gpuId: null,
  pricePerHour: null,
  requestName: null,
  fenceToken: null,
  answeredStatus: 504,
  trigger: 'idle',
};

describe('BillableIntents (real Redis)', () => {
  let intents: BillableIntents;

  beforeAll(() => {
    intents = new BillableIntents(db.redis, KEYS);
  });

  it('open intents read back as begun, oldest first', async () => {
    await intents.begin(STOP);
    await intents.begin(CREATE);
    expect(await intents.open('qwen')).toEqual([CREATE, STOP]);
    await intents.settle('qwen', CREATE.id);
    expect(await intents.open('qwen')).toEqual([STOP]);
  });

  it.each([
    ['an action we do not know', { ...CREATE, id: 'bad', action: 'Launch' }],
    [
      'no request name field (cannot be recognised in the list)',
      { ...CREATE, id: 'bad', requestName: undefined },
    ],
    ['a fence token that is text', { ...CREATE, id: 'bad', fenceToken: '7' }],
  ])('an intent with %s cannot be reconciled and is not shown as one', async (_case, stored) => {
    await intents.begin(CREATE);
    await db.redis.hset(KEYS.billableIntents('qwen'), 'bad', JSON.stringify(stored));
    expect(await intents.open('qwen')).toEqual([CREATE]);
  });

  it('an intent that is not JSON is not shown; the readable ones are', async () => {
    await intents.begin(CREATE);
    await db.redis.hset(KEYS.billableIntents('qwen'), 'torn', '{"id":"torn","action":"Cre');
    expect(await intents.open('qwen')).toEqual([CREATE]);
  });

  it('a GPU, price or trigger of the wrong type reads as absent', async () => {
    await db.redis.hset(
      KEYS.billableIntents('qwen'),
      STOP.id,
      JSON.stringify({ ...STOP, gpuId: 3, pricePerHour: 'cheap', trigger: 'cron' }),
    );
    const [read] = await intents.open('qwen');
    expect(read).toEqual({ ...STOP, trigger: undefined });
    expect(read.trigger).toBeUndefined();
  });
});
