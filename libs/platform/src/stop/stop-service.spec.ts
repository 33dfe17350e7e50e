import Redis from 'ioredis';
import { INITIAL_IDLE_STATE, parseConfig, type PodwardenConfig } from '@podwarden/policies';
import {
  FAKE_REFUSED_DETAIL,
  FAKE_REFUSED_STATUS,
  FakeRunPod,
  captureLogs,
  useTestRedis,
  type CapturedLogs,
} from '@podwarden/testing';
import { IdleStateStore, type IdleRecord } from '../idle/idle-state-store';
import { ActionLog } from '../records/action-log';
import type { ActionRecord } from '../records/action-record';
import { RedisKeys } from '../redis/redis-keys';
import { newStopService } from '../testing/new-stop-service';
import { StopService } from './stop-service';

const db = useTestRedis('stop');
const KEYS = new RedisKeys(db.prefix);
const AT = '2026-11-30T10:15:00.000Z';
const LOCK_MS = 60;

// A pod that has been up and ready: what the Down edge must clear.
const READY_RECORD: IdleRecord = {
  state: { ...INITIAL_IDLE_STATE, phase: 'Ready', upSince: 1, readySince: 2, lastTickAt: 3, idleStreak: 2 },
  baselines: { p1: 1234 },
  updatedAt: 3,
  lastTickId: 'tick-7',
};

function stopConfig(): PodwardenConfig {
  const parsed = parseConfig(
    { RUNPOD_API_KEY: 'k', RUNPOD_VOLUME_ID: 'vol-1', IDLE_POD_LOCK_MS: String(LOCK_MS) },
    null,
  );
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
}

interface StopHarness {
  readonly sut: StopService;
  readonly config: PodwardenConfig;
  readonly runpod: FakeRunPod;
  readonly logs: CapturedLogs;
  readonly store: IdleStateStore;
  actions(): Promise<ActionRecord[]>;
}

function harness(runpod: FakeRunPod, connection: Redis = db.redis): StopHarness {
  const config = stopConfig();
  const logs = captureLogs();
  const store = new IdleStateStore(connection, KEYS);
  const actionLog = new ActionLog(connection, KEYS, logs.logger);
  const sut = newStopService({
    config,
    client: runpod,
    actions: actionLog,
    idleStates: store,
    logger: logs.logger,
    now: () => Date.parse(AT),
  });
  return { sut, config, runpod, logs, store, actions: () => actionLog.recent('qwen', 10) };
}

const stopEntry = (podId: string, changes: Partial<ActionRecord> = {}): ActionRecord => ({
  at: AT,
  podName: 'qwen',
  action: 'Stop',
  podId,
  gpuId: 'NVIDIA L40S',
  pricePerHour: 0.86,
  httpStatus: 200,
  ok: true,
  trigger: 'manual',
  detail: null,
  ...changes,
});

describe(StopService.name, () => {
  describe('stopVolume and the wake in flight', () => {
    function withGate(runpod: FakeRunPod, stopWakes: (volumeId: string) => Promise<number>) {
      const config = stopConfig();
      const logs = captureLogs();
      const store = new IdleStateStore(db.redis, KEYS);
      const actionLog = new ActionLog(db.redis, KEYS, logs.logger);
      const gate = { stopWakes: jest.fn(stopWakes) };
      const sut = newStopService({
        config,
        client: runpod,
        actions: actionLog,
        idleStates: store,
        logger: logs.logger,
        now: () => Date.parse(AT),
        wakes: gate,
      });
      return { sut, config, gate, logs };
    }

    it('an operator stop fences out the wake on the volume before it lists or stops anything', async () => {
      const runpod = new FakeRunPod().setPod('p1');
      const { sut, config, gate } = withGate(runpod, async () => {
        runpod.note('fence');
        return 9;
      });

      await sut.stopVolume(config.pods[0], 'manual');

      expect(gate.stopWakes).toHaveBeenCalledWith('vol-1');
      expect(runpod.events).toEqual(['fence', 'list', 'stop p1']);
    });

    it('also with no pod on the volume yet (a wake still before its create)', async () => {
      const runpod = new FakeRunPod();
      const { sut, config, gate } = withGate(runpod, async () => 1);

      expect(await sut.stopVolume(config.pods[0], 'manual')).toEqual({ kind: 'no-pod' });
      expect(gate.stopWakes).toHaveBeenCalledTimes(1);
    });

    it('an idle stop does not touch the wake gate', async () => {
      const runpod = new FakeRunPod().setPod('p1');
      const { sut, config, gate } = withGate(runpod, async () => 1);

      await sut.stopVolume(config.pods[0], 'idle');

      expect(gate.stopWakes).not.toHaveBeenCalled();
    });

    it('a fence that cannot be written is logged and the pods are stopped anyway', async () => {
      const runpod = new FakeRunPod().setPod('p1');
      const { sut, config, logs } = withGate(runpod, () => Promise.reject(new Error('redis down')));

      const result = await sut.stopVolume(config.pods[0], 'manual');

      expect(result).toMatchObject({ kind: 'stopped', ok: true });
      expect(logs.messages('warn')).toContain(
        'operator stop could not fence the wake in flight; stopping the pods anyway',
      );
    });
  });

  describe('stopVolume', () => {
    it('stops every pod on the volume, records each with its GPU and price, and takes the Down edge', async () => {
      const runpod = new FakeRunPod()
        .setPod('p1')
        .setPod('elsewhere', { volumeId: 'vol-2' })
        .setPod('p2', { gpuId: 'NVIDIA RTX A6000', costPerHr: 0.49 });
      const h = harness(runpod);
      await h.store.save('qwen', READY_RECORD);

      const result = await h.sut.stopVolume(h.config.pods[0], 'manual');

      expect(result).toEqual({
        kind: 'stopped',
        ok: true,
        pods: [
          { podId: 'p1', ok: true, httpStatus: 200, called: true },
          { podId: 'p2', ok: true, httpStatus: 200, called: true },
        ],
      });
      expect(runpod.calls).toEqual(['list', 'stop p1', 'stop p2']);
      expect(await h.actions()).toEqual([
        stopEntry('p2', { gpuId: 'NVIDIA RTX A6000', pricePerHour: 0.49 }),
        stopEntry('p1'),
      ]);
      // Production always has the wake gate: a manual stop fences the volume first, and says so.
      expect(h.logs.messages('info')).toEqual([
        'operator stop: the wake in flight is fenced out',
        'stopped pod p1 (manual)',
        'stopped pod p2 (manual)',
      ]);
      expect(await h.store.load('qwen')).toEqual({
        ...READY_RECORD,
        state: INITIAL_IDLE_STATE,
        baselines: {},
        seenUp: [],
        updatedAt: Date.parse(AT),
        lastTickScheduledAt: null,
      });
    });

    it.each(['EXITED', 'TERMINATED', 'terminated'])(
      'a pod listed %s is down already: reported ok without a call or a record, and the Down edge still taken',
      async (listedStatus) => {
        const runpod = new FakeRunPod().setPod('gone', { listedStatus }).setPod('p2');
        const h = harness(runpod);
        await h.store.save('qwen', READY_RECORD);

        const result = await h.sut.stopVolume(h.config.pods[0], 'idle');

        expect(result).toEqual({
          kind: 'stopped',
          ok: true,
          pods: [
            { podId: 'gone', ok: true, httpStatus: 0, called: false },
            { podId: 'p2', ok: true, httpStatus: 200, called: true },
          ],
        });
        expect(runpod.billableCalls).toEqual(['stop p2']);
        expect((await h.actions()).map((a) => [a.podId, a.trigger])).toEqual([['p2', 'idle']]);
        expect((await h.store.load('qwen')).state).toEqual(INITIAL_IDLE_STATE);
      },
    );

    it('a partly refused stop is not ok: the refusal is recorded and logged at Warning, and readiness is kept', async () => {
      const runpod = new FakeRunPod().setPod('p1', { stop: 'refused' }).setPod('p2');
      const h = harness(runpod);
      await h.store.save('qwen', READY_RECORD);

      const result = await h.sut.stopVolume(h.config.pods[0], 'runtime-cap');

      expect(result).toEqual({
        kind: 'stopped',
        ok: false,
        pods: [
          { podId: 'p1', ok: false, httpStatus: FAKE_REFUSED_STATUS, called: true },
          { podId: 'p2', ok: true, httpStatus: 200, called: true },
        ],
      });
      expect(await h.actions()).toEqual([
        stopEntry('p2', { trigger: 'runtime-cap' }),
        stopEntry('p1', {
          trigger: 'runtime-cap',
          httpStatus: FAKE_REFUSED_STATUS,
          ok: false,
          detail: FAKE_REFUSED_DETAIL,
        }),
      ]);
      expect(h.logs.messages('warn')).toEqual([
        `stop of pod p1 refused (runtime-cap, HTTP ${FAKE_REFUSED_STATUS})`,
      ]);
      expect(h.logs.find('refused')[0]).toMatchObject({
        billable: 'Stop',
        podId: 'p1',
        trigger: 'runtime-cap',
      });
      // A pod may still be billing: readiness and baselines stay for the next tick to judge.
      expect(await h.store.load('qwen')).toEqual({ ...READY_RECORD, lastTickScheduledAt: null });
    });

    it('while a tick holds the idle lock past a lease, the stop still succeeds and leaves the Down edge to that tick', async () => {
      const runpod = new FakeRunPod().setPod('p1');
      const h = harness(runpod);
      await h.store.save('qwen', READY_RECORD);
      await db.redis.set(KEYS.idleLock('qwen'), 'a-running-tick', 'PX', 60_000);

      const result = await h.sut.stopVolume(h.config.pods[0], 'manual');

      expect(result).toMatchObject({ kind: 'stopped', ok: true });
      expect(runpod.billableCalls).toEqual(['stop p1']);
      expect(h.logs.find('idle state busy')).toEqual([
        expect.objectContaining({
          level: 40,
          pod: 'qwen',
          msg: 'idle state busy; the Down edge will be seen by the next tick instead',
        }),
      ]);
      expect(await h.store.load('qwen')).toEqual({ ...READY_RECORD, lastTickScheduledAt: null });
      expect(await db.redis.get(KEYS.idleLock('qwen'))).toBe('a-running-tick');
    });

    it('waits for a lock freed within a lease and then takes the Down edge', async () => {
      const runpod = new FakeRunPod().setPod('p1');
      const h = harness(runpod);
      await h.store.save('qwen', READY_RECORD);
      // The holder's lease runs out during the stop's wait (a tick that died).
      await db.redis.set(KEYS.idleLock('qwen'), 'a-dead-tick', 'PX', LOCK_MS / 3);

      await h.sut.stopVolume(h.config.pods[0], 'manual');

      expect(h.logs.messages('warn')).toEqual([]);
      expect((await h.store.load('qwen')).state).toEqual(INITIAL_IDLE_STATE);
    });

    it.each<[string, (runpod: FakeRunPod) => void, object]>([
      [
        'an unreadable list',
        (runpod) => runpod.setPod('p1').listFails('http 502'),
        { kind: 'unreadable', reason: 'http 502' },
      ],
      ['no pod on the volume', (runpod) => runpod.setPod('x', { volumeId: 'vol-2' }), { kind: 'no-pod' }],
    ])('%s stops nothing and records nothing', async (_what, arrange, expected) => {
      const runpod = new FakeRunPod();
      arrange(runpod);
      const h = harness(runpod);

      expect(await h.sut.stopVolume(h.config.pods[0], 'manual')).toEqual(expected);
      expect(runpod.calls).toEqual(['list']);
      expect(await h.actions()).toEqual([]);
    });

    it('an unconfigured pod makes no call at all', async () => {
      const runpod = new FakeRunPod().setPod('p1');
      const h = harness(runpod);

      expect(await h.sut.stopVolume({ ...h.config.pods[0], volumeId: ' ' }, 'manual')).toEqual({
        kind: 'unconfigured',
      });
      expect(runpod.calls).toEqual([]);
    });
  });

  describe('stopPods', () => {
    it('stops exactly the pods named, with GPU and price from the listing the caller read', async () => {
      const runpod = new FakeRunPod()
        .setPod('p1')
        .setPod('p2', { gpuId: 'NVIDIA RTX A6000', costPerHr: 0.49 })
        .setPod('p3', { stop: 'refused', gpuId: 'NVIDIA H100 80GB HBM3', costPerHr: 2.69 });
      const h = harness(runpod);
      const list = await runpod.listPods();
      runpod.takeCalls();

      const outcomes = await h.sut.stopPods(
        h.config.pods[0],
        ['p3', 'p1'],
        'boot-grace',
        list.kind === 'listed' ? list.pods : [],
      );

      expect(outcomes).toEqual([
        { podId: 'p3', ok: false, httpStatus: FAKE_REFUSED_STATUS, called: true },
        { podId: 'p1', ok: true, httpStatus: 200, called: true },
      ]);
      expect(runpod.calls).toEqual(['stop p3', 'stop p1']);
      expect((await h.actions()).map((a) => [a.podId, a.ok, a.gpuId, a.pricePerHour, a.trigger])).toEqual([
        ['p1', true, 'NVIDIA L40S', 0.86, 'boot-grace'],
        ['p3', false, 'NVIDIA H100 80GB HBM3', 2.69, 'boot-grace'],
      ]);
    });

    it('without a listing the GPU and price are unknown, never guessed', async () => {
      const h = harness(new FakeRunPod().setPod('p1'));

      await h.sut.stopPods(h.config.pods[0], ['p1'], 'idle');

      expect(await h.actions()).toEqual([
        stopEntry('p1', { trigger: 'idle', gpuId: null, pricePerHour: null }),
      ]);
    });
  });

  /** A stop RunPod accepted stays a success even when Redis (records, the Down edge) is unavailable. */
  it('reports the accepted stops and only warns when Redis refuses the record and the idle state', async () => {
    // A real client with nothing behind it and no offline queue: every command fails at once.
    const deadRedis = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    try {
      const runpod = new FakeRunPod().setPod('p1', { volumeId: 'vol-1' });
      const h = harness(runpod, deadRedis);

      const result = await h.sut.stopVolume(h.config.pods[0], 'manual');

      expect(result).toEqual({
        kind: 'stopped',
        ok: true,
        pods: [{ podId: 'p1', ok: true, httpStatus: 200, called: true }],
      });
      expect(runpod.calls).toEqual(['list', 'stop p1']);
      expect(h.logs.lines.map((l) => [l.level, l.msg])).toEqual([
        [30, 'operator stop: the wake in flight is fenced out'],
        [40, 'action log write failed; kept in memory and retried until Redis takes it'],
        [30, 'stopped pod p1 (manual)'],
        [40, 'idle state not reset after the stop; the next tick will see the pods down'],
      ]);
      expect(h.logs.lines[1]).toMatchObject({ actionRecord: stopEntry('p1') });
      expect(h.logs.lines[3]).toMatchObject({ pod: 'qwen', err: expect.any(String) });
    } finally {
      deadRedis.disconnect();
    }
  });
});
