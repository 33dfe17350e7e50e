import { useTestRedis } from '@podwarden/testing';
import { RedisKeys } from '../redis/redis-keys';
import { DiagnosisStore, type StoredDiagnosis } from './diagnosis-store';

const at = (minute: number) => `2026-12-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
const diagnosis = (podId: string, kind: StoredDiagnosis['kind'], minute: number): StoredDiagnosis => ({
  podId,
  at: at(minute),
  kind,
  evidence: [`line ${minute}`],
  summary: kind,
});

describe('DiagnosisStore (real Redis)', () => {
  let store: DiagnosisStore;
  const db = useTestRedis('diagnoses', { keepKeysBetweenTests: true });
  beforeAll(() => {
    store = new DiagnosisStore(db.redis, new RedisKeys(db.prefix));
  });

  it('keeps one entry per finding, the newest first, refreshing the evidence of a repeated one', async () => {
    expect(await store.latest('Qwen')).toBeNull();
    expect(await store.record('qwen', diagnosis('p1', 'cold-pull', 1))).toBe(true);
    expect(await store.record('QWEN', diagnosis('p1', 'cold-pull', 2))).toBe(false);
    expect(await store.record('qwen', diagnosis('p1', 'restart-loop', 3))).toBe(true);
    expect(await store.record('qwen', diagnosis('p2', 'restart-loop', 4))).toBe(true);
    expect((await store.all('qwen')).map((d) => `${d.podId}:${d.kind}:${d.at}`)).toEqual([
      `p2:restart-loop:${at(4)}`,
      `p1:restart-loop:${at(3)}`,
      `p1:cold-pull:${at(2)}`,
    ]);
    expect(await store.latest('qwen')).toEqual(diagnosis('p2', 'restart-loop', 4));
  });

  it.each([
    [
      'of the wrong shape (an unknown kind)',
      JSON.stringify({ ...diagnosis('p1', 'cold-pull', 1), kind: 'fine' }),
    ],
    ['not JSON', '{"podId":"p1"'],
  ])('a stored diagnosis %s is never read as none: latest and all throw', async (_case, stored) => {
    const keys = new RedisKeys(db.prefix);
    await db.redis.lpush(keys.diagnoses('broken'), stored);
    await expect(store.latest('broken')).rejects.toThrow(/unreadable/);
    await expect(store.all('broken')).rejects.toThrow(/unreadable/);
    await db.redis.del(keys.diagnoses('broken'));
  });
});
