import type { PodList } from '@podwarden/policies';
import {
  ActionLog,
  IdleStateStore,
  PendingStopStore,
  RedisKeys,
  type ActionRecord,
} from '@podwarden/platform';
import { newStopService } from '@podwarden/platform/testing/new-stop-service';
import { FakeRunPod, captureLogs, onePodListed, testConfig, useTestRedis } from '@podwarden/testing';
import { StopConfirmer } from './stop-confirmer';

const db = useTestRedis('stop-confirm');
const KEYS = new RedisKeys(db.prefix);
const T0 = Date.parse('2026-12-01T12:00:00Z');
const TICK_MS = 60_000;

function setup(env: Record<string, string> = {}) {
  const cfg = testConfig({ STOP_CONFIRM_TICKS: '3', STOP_CONFIRM_MAX_RESTOPS: '2', ...env });
  const pod = cfg.pods[0];
  const fake = new FakeRunPod();
  fake.setPod('p1', { volumeId: 'vol-1' });
  const logs = captureLogs('debug');
  const clock = { now: T0 };
  const pending = new PendingStopStore(db.redis, KEYS);
  const locks = new IdleStateStore(db.redis, KEYS);
  const actions = new ActionLog(db.redis, KEYS, logs.logger);
  const now = (): number => clock.now;
  const stops = newStopService({
    config: cfg,
    client: fake.asRunPodClient(),
    actions,
    idleStates: locks,
    logger: logs.logger,
    now,
    pendingStops: pending,
  });
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
  const tick = async (status: string | null | 'unreadable' | PodList): Promise<void> => {
    clock.now += TICK_MS;
    const list: PodList =
      status === 'unreadable'
        ? { kind: 'unreadable', reason: 'HTTP 500' }
        : typeof status === 'object' && status !== null
          ? status
          : onePodListed(status);
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

  it('a confirmation is one Information line naming the sighting, written once however many ticks follow', async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    h.logs.clear();
    await h.tick('EXITED');
    await h.tick('EXITED');
    expect(h.logs.lines).toEqual([
      expect.objectContaining({
        level: 30,
        pod: 'qwen',
        podId: 'p1',
        trigger: 'idle',
        restops: 0,
        sighting: 'down',
        msg: 'stop of p1 confirmed (down)',
      }),
    ]);
  });

  it('each tick still up within the bound is one Information line: the status and the tick count', async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    h.logs.clear();
    await h.tick('RUNNING');
    await h.tick('RUNNING');
    expect(h.logs.lines).toEqual([
      expect.objectContaining({
        level: 30,
        podId: 'p1',
        ticksWaited: 1,
        status: 'RUNNING',
        msg: 'stop of p1 not confirmed yet: still RUNNING (tick 1 of 3)',
      }),
      expect.objectContaining({
        level: 30,
        ticksWaited: 2,
        msg: 'stop of p1 not confirmed yet: still RUNNING (tick 2 of 3)',
      }),
    ]);
  });

  it("a re-stop's Error line and record say which attempt, how long, and carry the listed pod's GPU and price", async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'boot-grace');
    for (let i = 0; i < 3; i += 1) await h.tick('RUNNING');
    expect(h.logs.lines.filter((l) => l.level === 50)).toEqual([
      expect.objectContaining({
        pod: 'qwen',
        podId: 'p1',
        trigger: 'boot-grace',
        attempt: 1,
        maxRestops: 2,
        ticksWaited: 3,
        status: 'RUNNING',
        unconfirmedStop: true,
        msg: 'stop of p1 not confirmed: still RUNNING 3 ticks after it was accepted; re-stopping (attempt 1 of 2)',
      }),
    ]);
    const records = await h.stopRecords();
    expect(records.map((r) => [r.trigger, r.gpuId, r.pricePerHour])).toEqual([
      ['boot-grace', null, null],
      ['boot-grace', 'L40S', 0.5],
    ]);
    expect(records[1].detail).toBe(
      're-stop 1 of 2 of an unconfirmed stop: the boot-grace stop accepted at 2026-12-01T12:00:00.000Z left the pod RUNNING for 3 ticks',
    );
  });

  it('every re-stop spent: one Error line per tick that says it may still bill', async () => {
    const h = setup({ STOP_CONFIRM_TICKS: '1', STOP_CONFIRM_MAX_RESTOPS: '1' });
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    await h.tick('RUNNING');
    h.logs.clear();
    await h.tick('RUNNING');
    await h.tick('RUNNING');
    expect(h.logs.lines).toEqual([
      expect.objectContaining({
        level: 50,
        podId: 'p1',
        restops: 1,
        ticksWaited: 1,
        status: 'RUNNING',
        unconfirmedStop: true,
        msg: 'stop of p1 still not confirmed after 1 re-stops: RUNNING 1 ticks after the last; it may still bill',
      }),
      expect.objectContaining({ level: 50, ticksWaited: 2 }),
    ]);
    expect(h.fake.billableCalls).toEqual(['stop p1', 'stop p1']);
  });

  it("the status named is the followed pod's as listed, after another pod; listed without one, 'unknown status'", async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    h.logs.clear();
    await h.tick(listed(['p9', 'EXITED'], ['p1', 'RUNNING']));
    await h.tick(listed(['p9', 'EXITED'], ['p1', null]));
    expect(h.logs.messages('info')).toEqual([
      'stop of p1 not confirmed yet: still RUNNING (tick 1 of 3)',
      'stop of p1 not confirmed yet: still unknown status (tick 2 of 3)',
    ]);
  });

  it('a pod with no stop to follow takes no lock and reads no action log', async () => {
    const h = setup();
    const asked: string[] = [];
    const confirmer = new StopConfirmer({
      config: h.cfg,
      pending: h.pending,
      locks: {
        withLock: () => {
          asked.push('lock');
          return Promise.resolve({ ran: false as const });
        },
      },
      actions: h.actions,
      stops: h.stops,
      logger: h.logs.logger,
      now: () => h.clock.now,
    });
    await confirmer.read([h.pod], onePodListed('RUNNING'), h.clock.now);
    expect(asked).toEqual([]);
  });

  it('a follow-up list Redis cannot read is one Error for that pod; the next pod is still checked', async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    const broken = { ...h.pod, name: 'broken' };
    const confirmer = new StopConfirmer({
      config: h.cfg,
      pending: {
        all: (name: string) =>
          name === 'broken' ? Promise.reject(new Error('LOADING')) : h.pending.all(name),
        apply: (name, next) => h.pending.apply(name, next),
      },
      locks: new IdleStateStore(db.redis, KEYS),
      actions: h.actions,
      stops: h.stops,
      logger: h.logs.logger,
      now: () => h.clock.now,
    });
    h.clock.now += TICK_MS;
    h.logs.clear();
    await expect(
      confirmer.read([broken, h.pod], onePodListed('EXITED'), h.clock.now - 1),
    ).resolves.toBeUndefined();
    expect(h.logs.lines.filter((l) => l.level === 50)).toEqual([
      expect.objectContaining({ pod: 'broken', err: 'LOADING', msg: 'stop confirmation failed this tick' }),
    ]);
    expect((await h.pending.all('qwen'))[0].confirmedAt).toBe(h.clock.now);
  });

  it('a check that throws under the lock is one Error, never a failed tick', async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    const confirmer = new StopConfirmer({
      config: h.cfg,
      pending: h.pending,
      locks: new IdleStateStore(db.redis, KEYS),
      actions: { recent: () => Promise.reject(new Error('action log gone')) },
      stops: h.stops,
      logger: h.logs.logger,
      now: () => h.clock.now,
    });
    h.logs.clear();
    await expect(confirmer.read([h.pod], onePodListed('RUNNING'), h.clock.now + 1)).resolves.toBeUndefined();
    expect(h.logs.lines).toEqual([
      expect.objectContaining({
        level: 50,
        pod: 'qwen',
        err: 'action log gone',
        msg: 'stop confirmation failed this tick',
      }),
    ]);
  });

  it('a Create after the stop also ends the following; a refused Start does not', async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    h.clock.now += 1000;
    await h.actions.record({ ...wakeStart(h.clock.now), ok: false, httpStatus: 500 });
    for (let i = 0; i < 3; i += 1) await h.tick('RUNNING');
    expect(h.fake.billableCalls).toEqual(['stop p1', 'stop p1']);
    await h.actions.record({ ...wakeStart(h.clock.now), action: 'Create', podId: 'p2' });
    await h.tick('RUNNING');
    expect(await h.pending.all('qwen')).toEqual([]);
  });

  it("another pod's stop row does not stand in for this pod's: a start before it still ends the following", async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    h.clock.now += 1000;
    await h.actions.record(wakeStart(h.clock.now));
    await h.actions.record({ ...wakeStart(h.clock.now), action: 'Stop', podId: 'p9', trigger: 'manual' });
    await h.tick('RUNNING');
    expect(await h.pending.all('qwen')).toEqual([]);
  });

  it("another pod's accepted Stop after this one is no restart: the pod still up is stopped again", async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    h.clock.now += 1000;
    await h.actions.record({ ...wakeStart(h.clock.now), action: 'Stop', podId: 'p9', trigger: 'manual' });
    for (let i = 0; i < 3; i += 1) await h.tick('RUNNING');
    expect(h.fake.billableCalls).toEqual(['stop p1', 'stop p1']);
    expect(await h.pending.all('qwen')).toEqual([expect.objectContaining({ podId: 'p1', restops: 1 })]);
  });

  it('the confirmation line is written on the first tick that sees the pod down, and never again', async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    h.logs.clear();
    await h.tick('EXITED');
    expect(h.logs.lines.map((l) => [l.level, l.msg])).toEqual([[30, 'stop of p1 confirmed (down)']]);
    h.logs.clear();
    await h.tick('EXITED');
    await h.tick(null);
    expect(h.logs.lines).toEqual([]);
  });

  it("a refused Stop row of the pod does not stand in for the accepted one: a lagging wake's start before it still ends the following", async () => {
    const h = setup();
    await h.stops.stopPods(h.pod, ['p1'], 'idle');
    h.clock.now += 1000;
    await h.actions.record(wakeStart(h.clock.now - 180_000));
    await h.actions.record({
      ...wakeStart(h.clock.now),
      action: 'Stop',
      ok: false,
      httpStatus: 500,
      trigger: 'manual',
    });
    await h.tick('RUNNING');
    expect(await h.pending.all('qwen')).toEqual([]);
  });

  describe("once the stop's row has left the recent rows, the clocks decide", () => {
    /** The accepted stop, then more rows than the confirmer reads (refused starts: not starts), then `start`. */
    async function stopOutOfView(h: ReturnType<typeof setup>, start: ActionRecord): Promise<void> {
      await h.stops.stopPods(h.pod, ['p1'], 'idle');
      for (let i = 0; i < 20; i += 1)
        await h.actions.record({ ...wakeStart(h.clock.now), ok: false, httpStatus: 500 });
      await h.actions.record(start);
      expect((await h.actions.recent('qwen', 20)).filter((a) => a.action === 'Stop')).toEqual([]);
    }

    it('a start stamped after the stop ends the following', async () => {
      const h = setup();
      await stopOutOfView(h, wakeStart(T0 + 1000));
      await h.tick('RUNNING');
      expect(await h.pending.all('qwen')).toEqual([]);
    });

    it('a start stamped before the stop does not: the pod is stopped again', async () => {
      const h = setup();
      await stopOutOfView(h, wakeStart(T0 - 1000));
      for (let i = 0; i < 3; i += 1) await h.tick('RUNNING');
      expect(h.fake.billableCalls).toEqual(['stop p1', 'stop p1']);
    });
  });
});

/** A listed account: each [id, status] in order, on vol-1, as onePodListed lists p1. */
function listed(...pods: [string, string | null][]): PodList {
  const [p1] = (onePodListed('RUNNING') as Extract<PodList, { kind: 'listed' }>).pods;
  return { kind: 'listed', pods: pods.map(([id, status]) => ({ ...p1, id, status })) };
}

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
