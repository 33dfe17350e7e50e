import { captureLogs, useTestRedis } from '@podwarden/testing';
import { RedisKeys } from '../redis/redis-keys';
import { ReadyTimes } from './ready-times';
import { StatusPublisher } from './status-publisher';
import { StatusSnapshotStore, type StatusSnapshot } from './status-snapshot-store';
import { volumeReadingOf, type VolumeReading } from './volume-reading';

const RUNNING: VolumeReading = {
  kind: 'found',
  pods: [{ podId: 'p1', observation: { kind: 'found', podId: 'p1', status: 'Running', gpuCount: 1 } }],
};

function at(observedAt: number, volume: VolumeReading = RUNNING): StatusSnapshot {
  return { volume, observedAt };
}

describe(StatusSnapshotStore.name, () => {
  let store: StatusSnapshotStore;
  const snapshots = useTestRedis('status-snapshot', { keepKeysBetweenTests: true });
  const keys = new RedisKeys(snapshots.prefix);

  beforeAll(() => {
    store = new StatusSnapshotStore(snapshots.redis, keys);
  });

  it('keys the snapshot and its refresh lock by the lower-cased pod name', () => {
    expect(keys.statusSnapshot('QWEN')).toBe(`${snapshots.prefix}:status:qwen`);
    expect(keys.statusRefreshLock('QWEN')).toBe(`${snapshots.prefix}:status-refresh:qwen`);
  });

  it('reads nothing at generation 0 before any write', async () => {
    expect(await store.read('fresh')).toEqual({ snapshot: null, generation: 0 });
  });

  it('reads back a snapshot written at the current generation', async () => {
    expect(await store.write('a', 0, at(1000))).toBe(true);
    expect(await store.read('A')).toEqual({ snapshot: at(1000), generation: 0 });
  });

  it('an invalidation drops the snapshot and refuses a write from a read that began before it', async () => {
    await store.write('b', 0, at(1000));
    const before = await store.read('b');
    await store.invalidate('b');
    expect(await store.read('b')).toEqual({ snapshot: null, generation: 1 });
    expect(await store.write('b', before.generation, at(2000))).toBe(false);
    expect(await store.write('b', 1, at(2000))).toBe(true);
    expect((await store.read('b')).snapshot).toEqual(at(2000));
  });

  it('never replaces a newer observation with an older one', async () => {
    await store.write('c', 0, at(5000));
    expect(await store.write('c', 0, at(4000, { kind: 'not-found' }))).toBe(false);
    expect((await store.read('c')).snapshot).toEqual(at(5000));
  });

  it('the refresh lock is held by one reader until it releases it; another token cannot release it', async () => {
    expect(await store.tryLock('d', 'one', 30_000)).toBe(true);
    expect(await store.tryLock('d', 'two', 30_000)).toBe(false);
    await store.unlock('d', 'two');
    expect(await store.isLocked('d')).toBe(true);
    await store.unlock('d', 'one');
    expect(await store.tryLock('d', 'two', 30_000)).toBe(true);
  });

  it('an invalidation also frees the refresh lock: the read under it predates the write', async () => {
    await store.tryLock('e', 'one', 30_000);
    await store.invalidate('e');
    expect(await store.isLocked('e')).toBe(false);
  });

  it('an unparseable stored snapshot reads as none', async () => {
    await snapshots.redis.hset(keys.statusSnapshot('f'), 'snap', '{not json');
    expect((await store.read('f')).snapshot).toBeNull();
  });

  it.each([
    ['a volume of an unknown kind', { volume: { kind: 'maybe' }, observedAt: 1000 }],
    ['a found volume without its pods', { volume: { kind: 'found' }, observedAt: 1000 }],
    ['a pod without its id', { volume: { kind: 'found', pods: [{ observation: {} }] }, observedAt: 1000 }],
    ['no observation time', { volume: { kind: 'not-found' } }],
  ])('a stored snapshot with %s reads as none: the next read asks RunPod', async (_case, stored) => {
    await snapshots.redis.hset(keys.statusSnapshot('g'), 'snap', JSON.stringify(stored));
    expect((await store.read('g')).snapshot).toBeNull();
  });

  it('every kind of volume reading reads back as written', async () => {
    for (const volume of [{ kind: 'unconfigured' }, { kind: 'unreadable' }, { kind: 'not-found' }] as const) {
      await store.invalidate('h');
      const { generation } = await store.read('h');
      expect(await store.write('h', generation, at(2000 + generation, volume))).toBe(true);
      expect((await store.read('h')).snapshot).toEqual(at(2000 + generation, volume));
    }
  });
});

describe(StatusPublisher.name, () => {
  let store: StatusSnapshotStore;
  const published = useTestRedis('status-snapshot-pub', { keepKeysBetweenTests: true });
  const keys = new RedisKeys(published.prefix);
  let now = 10_000;

  beforeAll(() => {
    store = new StatusSnapshotStore(published.redis, keys);
  });

  it('publishes at the time the read began', async () => {
    const publisher = new StatusPublisher(store, captureLogs().logger, 1000, () => now);
    const ticket = await publisher.begin('qwen');
    now += 500;
    await publisher.publish('qwen', ticket, RUNNING);
    expect((await store.read('qwen')).snapshot).toEqual(at(10_000));
  });

  it('a write between begin and publish wins: the side read is dropped', async () => {
    const publisher = new StatusPublisher(store, captureLogs().logger, 1000, () => now);
    await publisher.invalidate('two');
    const ticket = await publisher.begin('two');
    await publisher.invalidate('two');
    await publisher.publish('two', ticket, RUNNING);
    expect((await store.read('two')).snapshot).toBeNull();
  });

  it.each<[string, VolumeReading | null]>([
    ['an unreadable side read', { kind: 'unreadable' }],
    ['a partial reading', null],
  ])('%s is not published', async (_name, volume) => {
    const publisher = new StatusPublisher(store, captureLogs().logger, 1000, () => now);
    const ticket = await publisher.begin(`skip-${volume?.kind ?? 'partial'}`);
    await publisher.publish(`skip-${volume?.kind ?? 'partial'}`, ticket, volume);
    expect((await store.read(`skip-${volume?.kind ?? 'partial'}`)).snapshot).toBeNull();
  });

  it('a Redis failure is logged, never thrown', async () => {
    const logs = captureLogs();
    const failing = () => Promise.reject(new Error('ECONNREFUSED scripted'));
    const publisher = new StatusPublisher(
      { generation: failing, write: failing, invalidate: failing },
      logs.logger,
      1000,
    );
    expect(await publisher.begin('qwen')).toBeNull();
    await expect(publisher.invalidate('qwen')).resolves.toBeUndefined();
    expect(logs.messages('warn')).toEqual([
      'status snapshot read failed',
      'status snapshot invalidation failed',
    ]);
  });
});

describe(volumeReadingOf.name, () => {
  const running = { kind: 'found', podId: 'p1', status: 'Running', gpuCount: 1 } as const;

  it.each<[string, Parameters<typeof volumeReadingOf>[0], string[], VolumeReading | null]>([
    ['unreadable list', { kind: 'unreadable', reason: 'x' }, [], { kind: 'unreadable' }],
    ['no pod on the volume', { kind: 'not-found' }, [], { kind: 'not-found' }],
    ['every pod observed', { kind: 'found', podIds: ['p1'] }, ['p1'], RUNNING],
    ['a pod not observed: no reading', { kind: 'found', podIds: ['p1', 'p2'] }, ['p1'], null],
  ])('%s', (_name, lookup, observed, expected) => {
    const observations = new Map(observed.map((id) => [id, { ...running, podId: id }]));
    expect(volumeReadingOf(lookup, observations)).toEqual(expected);
  });
});

describe(ReadyTimes.name, () => {
  const ready = useTestRedis('status-snapshot-ready', { keepKeysBetweenTests: true });
  const keys = new RedisKeys(ready.prefix);

  it('keeps one sample per wake, newest first, and the newest 100 only', async () => {
    const times = new ReadyTimes(ready.redis, keys);
    await times.add('qwen', { attemptId: 'a0', gpuId: 'L40S', readyAfterMs: 1000 }, 1);
    await times.add('qwen', { attemptId: 'a0', gpuId: 'L40S', readyAfterMs: 1000 }, 1);
    expect(await times.all('QWEN')).toEqual([{ attemptId: 'a0', gpuId: 'L40S', readyAfterMs: 1000 }]);
    for (let i = 1; i <= 100; i += 1) {
      await times.add('qwen', { attemptId: `a${i}`, gpuId: null, readyAfterMs: i }, i + 1);
    }
    const all = await times.all('qwen');
    expect(all).toHaveLength(100);
    expect(all[0].attemptId).toBe('a100');
    expect(all.map((s) => s.attemptId)).not.toContain('a0');
  });

  it('skips samples of the wrong shape or not JSON; a GPU of the wrong type reads as absent', async () => {
    const times = new ReadyTimes(ready.redis, keys);
    await times.add('mixed', { attemptId: 'b1', gpuId: 'A40', readyAfterMs: 5000 }, 1);
    await ready.redis.zadd(
      keys.readyTimes('mixed'),
      2,
      JSON.stringify({ attemptId: 'b2', readyAfterMs: '5000' }),
    );
    await ready.redis.zadd(keys.readyTimes('mixed'), 3, '{"attemptId":"b3"');
    await ready.redis.zadd(
      keys.readyTimes('mixed'),
      4,
      JSON.stringify({ attemptId: 'b4', gpuId: 40, readyAfterMs: 7 }),
    );
    expect(await times.all('mixed')).toEqual([
      { attemptId: 'b4', gpuId: null, readyAfterMs: 7 },
      { attemptId: 'b1', gpuId: 'A40', readyAfterMs: 5000 },
    ]);
  });
});
