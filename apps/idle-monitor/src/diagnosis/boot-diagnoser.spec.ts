import { INITIAL_IDLE_STATE, type IdleState, type ListedPod, type PodSignalOf } from '@podwarden/policies';
import type { PodLogRead } from '@podwarden/runpod-client';
import { DiagnosisStore, RedisKeys, type ActionRecord } from '@podwarden/platform';
import { RecordedEvents, captureLogs, testConfig, useTestRedis } from '@podwarden/testing';
import { BootDiagnoser } from './boot-diagnoser';
import { withEarlyStop } from './early-stop';

const T0 = Date.parse('2026-12-01T10:00:00Z');
const config = testConfig({
  RUNPOD_VOLUME_ID: 'vol-1',
  RUNPOD_POD_NAME: 'qwen',
  RIG_OPERATOR_TOKEN: 'op-token-123',
});
const pod = config.pods[0];
const booting = (ticks: number): IdleState => ({
  ...INITIAL_IDLE_STATE,
  phase: 'Booting',
  bootingTicks: ticks,
});
const listed = (id: string, status: string): ListedPod => ({
  id,
  name: id,
  status,
  volumeIds: ['vol-1'],
  costPerHr: 0.49,
  gpuId: 'g',
  createdAt: null,
});
const created = (podId: string): ActionRecord => ({
  at: new Date(T0).toISOString(),
  podName: 'qwen',
  action: 'Create',
  podId,
  gpuId: 'g',
  pricePerHour: 0.49,
  httpStatus: 201,
  ok: true,
  trigger: 'wake',
  detail: null,
});
const loopLines = (): PodLogRead => ({
  kind: 'read',
  stoppedBy: 'quiet',
  lines: [0, 1, 2, 3].flatMap((i) => [
    { source: 'system' as const, line: 'start container p1: begin', ts: T0 + i * 60_000 },
    {
      source: 'container' as const,
      line: 'env: HF_TOKEN=hf_abcdefghijklmnop op-token-123',
      ts: T0 + i * 60_000 + 500,
    },
    {
      source: 'container' as const,
      line: "PermissionError: [Errno 13] Permission denied: '/workspace' (HF_TOKEN=hf_abcdefghijklmnop)",
      ts: T0 + i * 60_000 + 1000,
    },
  ]),
});
const pullLines: PodLogRead = {
  kind: 'read',
  stoppedBy: 'quiet',
  lines: [{ source: 'system', line: 'Downloading layer 3/40', ts: T0 }],
};

describe('BootDiagnoser (real Redis store)', () => {
  const db = useTestRedis('diagnosis');

  function setUp(logs: PodLogRead, actions: ActionRecord[] = [created('p1')]) {
    const store = new DiagnosisStore(db.redis, new RedisKeys(db.prefix));
    const events = new RecordedEvents();
    const read: string[] = [];
    const diagnosed: string[] = [];
    const logged = captureLogs();
    const diagnoser = new BootDiagnoser({
      config,
      insights: {
        podLogs: async (podId) => {
          read.push(podId);
          return logs;
        },
      },
      actions: { recent: async () => actions },
      store,
      events,
      metrics: { diagnosed: (_pod, kind) => void diagnosed.push(kind) },
      logger: logged.logger,
      now: () => T0 + 10 * 60_000,
    });
    return { diagnoser, store, events, read, diagnosed, logged };
  }
  const check = (
    state: IdleState,
    perPod: PodSignalOf[],
    list: ListedPod[],
    stopDue: 'boot-grace' | null = null,
  ) => ({
    pod,
    state,
    stopDue,
    perPod,
    listed: list,
  });

  it('a restart loop of a pod we created is diagnosed, redacted, kept, announced and asks for the early stop', async () => {
    const t = setUp(loopLines());
    const answer = await t.diagnoser.check(
      check(booting(3), [{ podId: 'p1', signal: 'UnreachableButRunning' }], [listed('p1', 'RUNNING')]),
    );
    expect(answer).toBe('restart-loop');
    const kept = await t.store.latest('qwen');
    expect(kept).toMatchObject({ podId: 'p1', kind: 'restart-loop', at: '2026-12-01T10:10:00.000Z' });
    expect(kept?.evidence[2]).toBe(
      "PermissionError: [Errno 13] Permission denied: '/workspace' (HF_TOKEN=[redacted])",
    );
    expect(JSON.stringify(kept)).not.toMatch(/hf_abcdefghijklmnop|op-token-123/);
    expect(t.events.of('boot-diagnosis')).toEqual([
      expect.objectContaining({ podId: 'p1', kind: 'restart-loop' }),
    ]);
    expect(t.diagnosed).toEqual(['restart-loop']);
    expect(t.logged.messages('warn')).toEqual([expect.stringMatching(/^boot diagnosis of p1: /)]);
  });

  it('the same finding on the next tick is kept once and announced once', async () => {
    const t = setUp(loopLines());
    const c = check(booting(3), [{ podId: 'p1', signal: 'Booting' }], [listed('p1', 'RUNNING')]);
    await t.diagnoser.check(c);
    await t.diagnoser.check({ ...c, state: booting(4) });
    expect(await t.store.all('qwen')).toHaveLength(1);
    expect(t.events.of('boot-diagnosis')).toHaveLength(1);
  });

  it('a cold pull is diagnosed and left alone', async () => {
    const t = setUp(pullLines);
    expect(
      await t.diagnoser.check(
        check(booting(5), [{ podId: 'p1', signal: 'Booting' }], [listed('p1', 'RUNNING')]),
      ),
    ).toBeNull();
    expect((await t.store.latest('qwen'))?.kind).toBe('cold-pull');
    // What a normal first boot looks like: said at info, no Warning for a new user to judge.
    expect(t.logged.messages('warn')).toEqual([]);
    expect(t.logged.messages('info')).toEqual([expect.stringMatching(/^boot diagnosis of p1: /)]);
  });

  it.each<[string, IdleState, ActionRecord[], 'boot-grace' | null]>([
    ['too few booting ticks', booting(2), [created('p1')], null],
    ['a pod we did not start or create', booting(5), [], null],
  ])('reads no logs for %s', async (_case, state, actions, stopDue) => {
    const t = setUp(loopLines(), actions);
    expect(
      await t.diagnoser.check(
        check(state, [{ podId: 'p1', signal: 'Booting' }], [listed('p1', 'RUNNING')], stopDue),
      ),
    ).toBeNull();
    expect(t.read).toEqual([]);
  });

  it('not ready in time (the boot grace due) and an ERROR pod are diagnosed at once', async () => {
    const t = setUp(pullLines);
    await t.diagnoser.check(
      check(booting(1), [{ podId: 'p1', signal: 'Booting' }], [listed('p1', 'RUNNING')], 'boot-grace'),
    );
    await t.diagnoser.check(
      check(INITIAL_IDLE_STATE, [{ podId: 'p1', signal: 'NotRunning' }], [listed('p1', 'ERROR')]),
    );
    expect(t.read).toEqual(['p1', 'p1']);
  });

  it('unreadable logs are an unknown diagnosis, never a stop', async () => {
    const t = setUp({ kind: 'unreadable', reason: 'http 500' });
    expect(
      await t.diagnoser.check(
        check(booting(3), [{ podId: 'p1', signal: 'Booting' }], [listed('p1', 'RUNNING')]),
      ),
    ).toBeNull();
    expect((await t.store.latest('qwen'))?.kind).toBe('unknown');
  });
});

describe('withEarlyStop', () => {
  const req = { pod, state: booting(3), perPod: [], listed: [] };
  it.each<[string | null, 'restart-loop' | null, string | null]>([
    [null, 'restart-loop', 'restart-loop'],
    ['boot-grace', 'restart-loop', 'restart-loop'],
    ['runtime-cap', 'restart-loop', 'runtime-cap'],
    ['idle', null, 'idle'],
    [null, null, null],
  ])('phase stop %s with diagnosis asking %s: %s', async (due, asks, expected) => {
    const boots = { check: async () => asks };
    expect(await withEarlyStop(boots, due as never, req)).toBe(expected);
  });
});
