import type Redis from 'ioredis';
import type { PodList } from '@podwarden/policies';
import {
  ActionLog,
  IdleStateStore,
  PendingStopStore,
  RedisKeys,
  StopService,
  type ActionRecord,
} from '@podwarden/platform';
import {
  FakeRunPod,
  captureLogs,
  connectTestRedis,
  deleteKeysUnder,
  onePodListed,
  testConfig,
  uniqueTestPrefix,
} from '@podwarden/testing';
import { StopConfirmer } from './stop-confirmer';

const PREFIX = uniqueTestPrefix('stop-confirm');
const KEYS = new RedisKeys(PREFIX);
const T0 = Date.parse('2026-12-01T12:00:00Z');
const TICK_MS = 60_000;

let redis: Redis;
beforeAll(() => {
  redis = connectTestRedis();
});
afterEach(() => deleteKeysUnder(redis, PREFIX));
afterAll(async () => {
  await deleteKeysUnder(redis, PREFIX);
  await redis.quit();
});

function setup(env: Record<string, string> = {}) {
  const cfg = testConfig({ STOP_CONFIRM_TICKS: '3', STOP_CONFIRM_MAX_RESTOPS: '2', ...env });
  const pod = cfg.pods[0];
  const fake = new FakeRunPod();
  fake.setPod('p1', { volumeId: 'vol-1' });
  const logs = captureLogs('debug');
  const clock = { now: T0 };
  const pending = new PendingStopStore(redis, KEYS);
  const locks = new IdleStateStore(redis, KEYS);
  const actions = new ActionLog(redis, KEYS, logs.logger);
  const now = (): Date => new Date(clock.now);
  const stops = new StopService(
    cfg,
    fake.asRunPodClient(),
    actions,
    locks,
    logs.logger,
    now,
    undefined,
    undefined,
    pending,
  );
  const confirmer = new StopConfirmer({
    config: cfg,
    pending,
    locks,
    actions,
    stops,
    logger: logs.logger,
    now: () => clock.now,
  });
  /** One tick: the clock moves on, the list is read, then the confirmer judges. */
  const tick = async (status: string | null | 'unreadable'): Promise<void> => {
    clock.now += TICK_MS;
    const list: PodList =
      status === 'unreadable' ? { kind: 'unreadable', reason: 'HTTP 500' } : onePodListed(status);
    await confirmer.read([pod], list, clock.now - 1);
  };
  const stopRecords = async (): Promise<ActionRecord[]> =>
    (await actions.recent(pod.name, 20)).filter((a) => a.action === 'Stop').reverse();
  return { cfg, pod, fake, logs, clock, pending, stops, tick, stopRecords, actions };
}

describe('StopConfirmer', () => {
  it('an accepted stop seen EXITED on the next tick is confirmed, with no second call', async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    expect(await h.pending.all('qwen')).toEqual([
      expect.objectContaining({ podId: 'p1', confirmedAt: null }),
    ]);
    await h.tick('EXITED');
    expect(await h.pending.all('qwen')).toEqual([expect.objectContaining({ confirmedAt: h.clock.now })]);
    expect(h.fake.billableCalls).toEqual(['stop p1']);
    expect(h.logs.messages('error')).toEqual([]);
  });

  it('a stopped pod gone from the list is confirmed', async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'manual');
    await h.tick(null);
    expect((await h.pending.all('qwen'))[0].confirmedAt).not.toBeNull();
  });

  it('a pod still up after STOP_CONFIRM_TICKS ticks is stopped again, logged at Error and recorded, at most twice; then reported every tick', async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    await h.tick('RUNNING');
    await h.tick('RUNNING');
    expect(h.fake.billableCalls).toEqual(['stop p1']);
    await h.tick('RUNNING');
    expect(h.fake.billableCalls).toEqual(['stop p1', 'stop p1']);
    const errors = h.logs.lines.filter((l) => l.level === 50);
    expect(errors).toEqual([
      expect.objectContaining({ pod: 'qwen', podId: 'p1', attempt: 1, maxRestops: 2, unconfirmedStop: true }),
    ]);
    for (let i = 0; i < 3; i += 1) await h.tick('RUNNING');
    expect(h.fake.billableCalls).toEqual(['stop p1', 'stop p1', 'stop p1']);
    for (let i = 0; i < 4; i += 1) await h.tick('RUNNING');
    expect(h.fake.billableCalls).toHaveLength(3);
    expect(h.logs.messages('error').length).toBeGreaterThanOrEqual(2 + 2);
    expect(h.logs.messages('error').at(-1)).toMatch(/still not confirmed after 2 re-stops/);
    const records = await h.stopRecords();
    expect(records.map((r) => r.trigger)).toEqual(['idle', 'idle', 'idle']);
    expect(records[0].detail).toBeNull();
    expect(records[1].detail).toMatch(
      /^re-stop 1 of 2 of an unconfirmed stop: the idle stop accepted at .* left the pod RUNNING for 3 ticks/,
    );
    expect(records[2].detail).toMatch(/^re-stop 2 of 2 /);
    expect(await h.pending.all('qwen')).toEqual([expect.objectContaining({ restops: 2, confirmedAt: null })]);
    await h.tick('EXITED');
    expect((await h.pending.all('qwen'))[0].confirmedAt).not.toBeNull();
  });

  it('an unreadable list counts no tick', async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    await h.tick('RUNNING');
    await h.tick('RUNNING');
    for (let i = 0; i < 5; i += 1) await h.tick('unreadable');
    expect(h.fake.billableCalls).toEqual(['stop p1']);
    expect(await h.pending.all('qwen')).toEqual([expect.objectContaining({ ticksWaited: 2 })]);
  });

  it('a wake that starts the pod after the stop ends the following: never a re-stop', async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    h.clock.now += 1000;
    await h.actions.record(wakeStart(h.clock.now));
    for (let i = 0; i < 4; i += 1) await h.tick('RUNNING');
    expect(h.fake.billableCalls).toEqual(['stop p1']);
    expect(await h.pending.all('qwen')).toEqual([]);
  });

  it('a wake by a waker minutes behind the stopper still ends the following: the log order says it came after', async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    h.clock.now += 1000;
    await h.actions.record(wakeStart(h.clock.now - 180_000));
    for (let i = 0; i < 4; i += 1) await h.tick('RUNNING');
    expect(h.fake.billableCalls).toEqual(['stop p1']);
    expect(await h.pending.all('qwen')).toEqual([]);
  });

  it('a start older in the log than the stop does not end the following', async () => {
    const h = setup();
    await h.actions.record(wakeStart(h.clock.now + 180_000));
    h.clock.now += 1000;
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    for (let i = 0; i < 3; i += 1) await h.tick('RUNNING');
    expect(h.fake.billableCalls).toEqual(['stop p1', 'stop p1']);
  });

  it('IDLE_DRY_RUN: an unconfirmed stop is logged "would re-stop" and nothing is called', async () => {
    const h = setup({ IDLE_DRY_RUN: 'true', STOP_CONFIRM_TICKS: '1' });
    await h.stops.stopPods(h.pod, ['p1'], 'manual');
    await h.tick('RUNNING');
    expect(h.fake.billableCalls).toEqual(['stop p1']);
    expect(h.logs.messages('error')).toEqual([expect.stringMatching(/would re-stop \(attempt 1 of 2\)/)]);
  });
});

/** A wake's recorded start of p1, stamped `at` by the waker's clock. */
function wakeStart(at: number): ActionRecord {
  return {
    at: new Date(at).toISOString(),
    podName: 'qwen',
    action: 'Start',
    podId: 'p1',
    gpuId: null,
    pricePerHour: null,
    httpStatus: 200,
    ok: true,
    trigger: 'wake',
    detail: null,
  };
}
