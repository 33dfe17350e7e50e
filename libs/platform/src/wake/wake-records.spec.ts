import { useTestRedis } from '@podwarden/testing';
import type { WakeJobResult } from '../queues/wake-job';
import { RedisKeys } from '../redis/redis-keys';
import { WakeGate } from './wake-gate';
import { WakeProgressStore, type WakeProgress } from './wake-progress';

const db = useTestRedis('wake-records');

const RESULT: WakeJobResult = {
  name: 'qwen',
  attemptId: 'job-1',
  proxyUrl: 'https://pod-1-8000.proxy.runpod.net',
  joined: false,
  outcome: 'Started',
  failureKind: null,
  podId: 'pod-1',
  gpuId: null,
  pricePerHour: 0.79,
  message: 'started pod-1',
};

const PROGRESS: WakeProgress = {
  attemptId: 'job-1',
  phase: 'starting',
  message: 'starting pod-1',
  updatedAt: '2026-12-01T12:00:00.000Z',
};

describe('wake records read back from Redis', () => {
  const keys = new RedisKeys(db.prefix);
  let gate: WakeGate;
  let progress: WakeProgressStore;

  beforeAll(() => {
    gate = new WakeGate(db.redis, keys);
    progress = new WakeProgressStore(db.redis, keys);
  });

  it('a published result reads back as written, a failed one too', async () => {
    await gate.publishResult(RESULT);
    expect(await gate.readResult('job-1')).toEqual(RESULT);
    const failed: WakeJobResult = {
      ...RESULT,
      attemptId: 'job-2',
      outcome: 'Failed',
      failureKind: 'refused',
      podId: null,
      pricePerHour: null,
      proxyUrl: null,
      joined: true,
    };
    await gate.publishResult(failed);
    expect(await gate.readResult('job-2')).toEqual(failed);
  });

  it.each([
    ['an outcome we do not know', { ...RESULT, outcome: 'Succeeded' }],
    ['no outcome at all', { ...RESULT, outcome: undefined }],
    ['a joined flag that is not a boolean', { ...RESULT, joined: 'yes' }],
  ])('a result with %s is not a published result (never a success)', async (_case, stored) => {
    await db.redis.set(keys.wakeResult('job-1'), JSON.stringify(stored));
    expect(await gate.readResult('job-1')).toBeNull();
  });

  it('a result that is not JSON is not a published result', async () => {
    await db.redis.set(keys.wakeResult('job-1'), '{"outcome":"Started"');
    expect(await gate.readResult('job-1')).toBeNull();
  });

  it('a wrong GPU or price type reads as absent, the outcome stands', async () => {
    await db.redis.set(
      keys.wakeResult('job-1'),
      JSON.stringify({ ...RESULT, gpuId: 7, pricePerHour: 'cheap' }),
    );
    expect(await gate.readResult('job-1')).toEqual({ ...RESULT, gpuId: null, pricePerHour: null });
  });

  it('progress reads back as written; unreadable progress (wrong shape or not JSON) shows as none', async () => {
    await progress.set('qwen', PROGRESS);
    expect(await progress.get('qwen')).toEqual(PROGRESS);
    await db.redis.set(keys.wakeProgress('qwen'), JSON.stringify({ ...PROGRESS, attemptId: 42 }));
    expect(await progress.get('qwen')).toBeNull();
    await db.redis.set(keys.wakeProgress('qwen'), 'not json');
    expect(await progress.get('qwen')).toBeNull();
  });
});
