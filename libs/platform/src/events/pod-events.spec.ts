import { captureLogs, connectTestRedis, useTestRedis } from '@podwarden/testing';
import { RedisKeys } from '../redis/redis-keys';
import { compareStreamIds, eventOfEntry, POD_EVENT_RETENTION, type PodEvent } from './pod-event';
import { PodEventPublisher } from './pod-event-publisher';
import { PodEventReader } from './pod-event-reader';
import { PodEventTail } from './pod-event-tail';

const db = useTestRedis('pod-events', { keepKeysBetweenTests: true });
const AT = new Date('2026-01-01T12:00:00.000Z');

describe('pod events', () => {
  const keys = new RedisKeys(db.prefix);
  const logs = captureLogs();
  let publisher: PodEventPublisher;
  let reader: PodEventReader;

  beforeAll(() => {
    publisher = new PodEventPublisher(db.redis, keys, logs.logger, 1_000, () => AT);
    reader = new PodEventReader(db.redis, keys);
  });

  describe(PodEventPublisher.name, () => {
    it('appends to the pod stream under the prefix (lower-cased name) with type and JSON data carrying pod and at', async () => {
      const id = await publisher.publish('Qwen', 'keepalive', { keepAliveUntil: null, minutes: 0 });
      expect(id).toMatch(/^\d+-\d+$/);
      const rows = await db.redis.xrange(`${db.prefix}:events:qwen`, '-', '+');
      expect(rows).toEqual([
        [
          id,
          [
            'type',
            'keepalive',
            'data',
            JSON.stringify({ pod: 'Qwen', at: AT.toISOString(), keepAliveUntil: null, minutes: 0 }),
          ],
        ],
      ]);
    });

    it('caps the stream near the retention', async () => {
      const pipeline = db.redis.pipeline();
      for (let i = 0; i < POD_EVENT_RETENTION + 500; i++) {
        pipeline.xadd(keys.events('capped'), '*', 'type', 'phase', 'data', '{}');
      }
      await pipeline.exec();
      await publisher.publish('capped', 'phase', {});
      // MAXLEN ~ trims whole macro nodes: a little over the cap, never the whole history.
      const length = await db.redis.xlen(keys.events('capped'));
      expect(length).toBeGreaterThanOrEqual(POD_EVENT_RETENTION);
      expect(length).toBeLessThan(POD_EVENT_RETENTION + 500);
    });

    it('never throws: a Redis that does not take it is a Warning and a null id', async () => {
      const broken = connectTestRedis();
      await broken.quit();
      const failing = new PodEventPublisher(broken, keys, logs.logger, 200, () => AT);
      logs.clear();
      await expect(failing.publish('qwen', 'stop', { podId: 'p1' })).resolves.toBeNull();
      expect(logs.find('pod event not published')).toEqual([
        expect.objectContaining({ level: 40, pod: 'qwen', event: 'stop' }),
      ]);
    });
  });

  describe(PodEventReader.name, () => {
    it('replays strictly after the given id, oldest first, and knows the newest id', async () => {
      const ids = [];
      for (const n of [1, 2, 3])
        ids.push(await publisher.publish('replay', 'idle-streak', { idleStreak: n }));
      const after = await reader.after('REPLAY', ids[0] as string, 100);
      expect(after.map((e) => [e.id, e.type, e.data.idleStreak])).toEqual([
        [ids[1], 'idle-streak', 2],
        [ids[2], 'idle-streak', 3],
      ]);
      expect(await reader.lastId('replay')).toBe(ids[2]);
      expect(await reader.lastId('never-published')).toBeNull();
    });

    it('skips entries that are not events', () => {
      expect(eventOfEntry('1-0', ['type', 'x', 'data', 'not json'])).toBeNull();
      expect(eventOfEntry('1-0', ['type', 'x', 'data', '[1]'])).toBeNull();
      expect(eventOfEntry('1-0', ['type', 'x', 'data', '"text"'])).toBeNull();
      expect(eventOfEntry('1-0', ['type', 'x', 'data', 'null'])).toBeNull();
      expect(eventOfEntry('1-0', ['data', '{}'])).toBeNull();
      expect(eventOfEntry('1-0', ['type', 'x', 'data', '{"a":1}'])).toEqual({
        id: '1-0',
        type: 'x',
        data: { a: 1 },
      });
    });

    it.each([
      ['1-0', '2-0', -1],
      ['2-0', '1-5', 1],
      ['10-0', '9-0', 1],
      ['5-2', '5-10', -1],
      ['5-2', '5-2', 0],
      ['junk', '0-0', -1],
    ])('orders stream ids numerically: %s vs %s', (a, b, sign) => {
      expect(compareStreamIds(a, b)).toBe(sign);
    });
  });

  describe(PodEventTail.name, () => {
    it('delivers what is published after start, per pod, in order, and nothing from before', async () => {
      await publisher.publish('tail-a', 'phase', { phase: 'old' });
      const seen: [string, PodEvent][] = [];
      const tail = new PodEventTail(
        connectTestRedis(),
        keys,
        ['tail-a', 'Tail-B'],
        (pod, event) => seen.push([pod, event]),
        logs.logger,
        { blockMs: 200, retryMs: 50 },
      );
      await tail.start();
      try {
        await publisher.publish('tail-a', 'phase', { phase: 'booting' });
        await publisher.publish('tail-b', 'stop', { podId: 'p2' });
        await publisher.publish('tail-a', 'phase', { phase: 'ready' });
        await until(() => seen.length >= 3);
        const byPod = (name: string) => seen.filter(([pod]) => pod === name).map(([, e]) => e.data);
        expect(byPod('tail-a')).toEqual([
          expect.objectContaining({ phase: 'booting' }),
          expect.objectContaining({ phase: 'ready' }),
        ]);
        expect(byPod('Tail-B')).toEqual([expect.objectContaining({ podId: 'p2' })]);
      } finally {
        await tail.stop();
      }
    });
  });
});

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
