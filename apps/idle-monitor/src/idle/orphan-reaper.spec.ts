import { parseConfig, type PodwardenConfig } from '@podwarden/policies';
import type { ActionRecord } from '@podwarden/platform';
import { FAKE_REFUSED_DETAIL, FakeRunPod, LEVEL, captureLogs } from '@podwarden/testing';
import { OrphanReaper } from './orphan-reaper';

const NOW = Date.parse('2026-12-01T12:00:00Z');

function config(env: Record<string, string> = {}): PodwardenConfig {
  const parsed = parseConfig({ RUNPOD_API_KEY: 'k', RUNPOD_VOLUME_ID: 'vol-1', ...env }, null);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
}

function minutesAgo(minutes: number): string {
  return new Date(NOW - minutes * 60_000).toISOString();
}

function setup(env: Record<string, string> = {}) {
  const fake = new FakeRunPod();
  const recorded: ActionRecord[] = [];
  const logs = captureLogs('debug');
  const reaper = new OrphanReaper({
    config: config(env),
    client: fake,
    actions: {
      record: async (entry) => {
        recorded.push(entry);
        return 'recorded';
      },
    },
    logger: logs.logger,
    now: () => NOW,
    intents: { begin: async () => undefined },
  });
  return { fake, recorded, logs, reaper };
}

describe('OrphanReaper', () => {
  it('terminates a prefixed pod on no configured volume past the grace, recorded with trigger orphan; leaves the rest alone', async () => {
    const { fake, recorded, reaper } = setup();
    fake.setPod('orphan', { volumeId: null, name: 'podwarden-qwen-x', createdAt: minutesAgo(11) });
    fake.setPod('young', { volumeId: null, name: 'podwarden-qwen-y', createdAt: minutesAgo(9) });
    fake.setPod('foreign', { volumeId: null, name: 'my-own-pod', createdAt: minutesAgo(600) });
    fake.setPod('ours', { volumeId: 'vol-1', name: 'podwarden-qwen-z', createdAt: minutesAgo(600) });
    const list = await fake.listPods();
    if (list.kind !== 'listed') throw new Error('list');
    fake.calls.length = 0;

    await reaper.sweep(list.pods);

    expect(fake.calls).toEqual(['terminate orphan']);
    expect(recorded).toEqual([
      expect.objectContaining({
        podName: 'qwen',
        action: 'Terminate',
        podId: 'orphan',
        trigger: 'orphan',
        ok: true,
        detail: 'podwarden-qwen-x on no volume, not configured',
      }),
    ]);
    expect(reaper.counts).toEqual({ found: 1, terminated: 1 });
  });

  it('ORPHAN_GRACE_MINUTES takes decimals', async () => {
    const { fake, reaper } = setup({ ORPHAN_GRACE_MINUTES: '0.5' });
    fake.setPod('a', { volumeId: 'vol-gone', name: 'podwarden-a', createdAt: minutesAgo(0.6) });
    fake.setPod('b', { volumeId: 'vol-gone', name: 'podwarden-b', createdAt: minutesAgo(0.4) });
    const list = await fake.listPods();
    if (list.kind !== 'listed') throw new Error('list');
    fake.calls.length = 0;
    await reaper.sweep(list.pods);
    expect(fake.calls).toEqual(['terminate a']);
  });

  it('IDLE_DRY_RUN logs "would terminate" and calls nothing', async () => {
    const { fake, recorded, logs, reaper } = setup({ IDLE_DRY_RUN: 'true' });
    fake.setPod('orphan', { volumeId: null, name: 'podwarden-x', createdAt: minutesAgo(60) });
    const list = await fake.listPods();
    if (list.kind !== 'listed') throw new Error('list');
    fake.calls.length = 0;
    await reaper.sweep(list.pods);
    expect(fake.calls).toEqual([]);
    expect(recorded).toEqual([]);
    expect(logs.messages('warn')).toEqual(['would terminate orphan (orphan)']);
    expect(reaper.counts).toEqual({ found: 1, terminated: 0 });
  });

  it('a refused termination is recorded as refused and counted as found only', async () => {
    const { fake, recorded, reaper } = setup();
    fake.setPod('orphan', {
      volumeId: null,
      name: 'podwarden-x',
      createdAt: minutesAgo(60),
      terminate: 'refused',
    });
    const list = await fake.listPods();
    if (list.kind !== 'listed') throw new Error('list');
    await reaper.sweep(list.pods);
    expect(recorded.map((r) => `${r.action} ${r.podId} ok=${r.ok}`)).toEqual(['Terminate orphan ok=false']);
    expect(reaper.counts).toEqual({ found: 1, terminated: 0 });
  });

  it('records and logs the whole billable row: time, GPU, price, status, and the volumes the pod was on', async () => {
    const { fake, recorded, logs, reaper } = setup();
    fake.setPod('orphan', {
      volumeId: 'vol-gone',
      name: 'podwarden-qwen-x',
      createdAt: minutesAgo(30),
      gpuId: 'NVIDIA A40',
      costPerHr: 0.44,
    });
    const list = await fake.listPods();
    if (list.kind !== 'listed') throw new Error('list');
    await reaper.sweep(list.pods);
    expect(recorded).toEqual([
      {
        at: '2026-12-01T12:00:00.000Z',
        podName: 'qwen',
        action: 'Terminate',
        podId: 'orphan',
        gpuId: 'NVIDIA A40',
        pricePerHour: 0.44,
        httpStatus: 204,
        ok: true,
        trigger: 'orphan',
        detail: 'podwarden-qwen-x on volume vol-gone, not configured',
      },
    ]);
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: LEVEL.info,
        pod: 'qwen',
        podId: 'orphan',
        billable: 'Terminate',
        msg: 'terminated orphan orphan (podwarden-qwen-x on volume vol-gone)',
      }),
    ]);
  });

  it("a refused termination's row carries RunPod's reason and its line names the HTTP status", async () => {
    const { fake, recorded, logs, reaper } = setup();
    fake.setPod('orphan', {
      volumeId: null,
      name: 'podwarden-x',
      createdAt: minutesAgo(60),
      terminate: 'refused',
    });
    const list = await fake.listPods();
    if (list.kind !== 'listed') throw new Error('list');
    await reaper.sweep(list.pods);
    expect(recorded.map((r) => [r.httpStatus, r.detail])).toEqual([
      [500, `podwarden-x on no volume, not configured; ${FAKE_REFUSED_DETAIL}`],
    ]);
    expect(logs.messages('warn')).toEqual(['termination of orphan orphan refused (HTTP 500)']);
  });

  it('a termination that throws is one Error naming the pod; the sweep goes on to the next orphan', async () => {
    const { fake, recorded, logs } = setup();
    fake.setPod('a', { volumeId: null, name: 'podwarden-a', createdAt: minutesAgo(60) });
    fake.setPod('b', { volumeId: null, name: 'podwarden-b', createdAt: minutesAgo(60) });
    const list = await fake.listPods();
    if (list.kind !== 'listed') throw new Error('list');
    const reaper = new OrphanReaper({
      config: config(),
      client: {
        terminatePod: (podId: string) =>
          podId === 'a' ? Promise.reject(new Error('socket hang up')) : fake.terminatePod(podId),
      },
      actions: { record: async (entry) => (recorded.push(entry), 'recorded') },
      logger: logs.logger,
      now: () => NOW,
      intents: { begin: async () => undefined },
    });
    await expect(reaper.sweep(list.pods)).resolves.toBeUndefined();
    expect(logs.lines.filter((l) => l.level === LEVEL.error)).toEqual([
      expect.objectContaining({
        podId: 'a',
        podName: 'podwarden-a',
        volumeIds: [],
        ageMs: 3_600_000,
        err: 'socket hang up',
        msg: 'orphan a not terminated',
      }),
    ]);
    expect(recorded.map((r) => r.podId)).toEqual(['b']);
    expect(reaper.counts).toEqual({ found: 2, terminated: 1 });
  });

  it('an aborted tick terminates nothing more: each orphan left is one Error', async () => {
    const { fake, recorded, logs, reaper } = setup();
    fake.setPod('a', { volumeId: null, name: 'podwarden-a', createdAt: minutesAgo(60) });
    const list = await fake.listPods();
    if (list.kind !== 'listed') throw new Error('list');
    fake.calls.length = 0;
    const aborts = new AbortController();
    aborts.abort(new Error('tick cancelled'));
    await reaper.sweep(list.pods, aborts.signal);
    expect(fake.calls).toEqual([]);
    expect(recorded).toEqual([]);
    expect(logs.messages('error')).toEqual(['orphan a not terminated']);
  });

  it('a pod on two unconfigured volumes is named with both, comma-separated, in its row and its line', async () => {
    const { fake, recorded, logs, reaper } = setup();
    fake.setPod('orphan', { volumeId: 'vol-a', name: 'podwarden-x', createdAt: minutesAgo(60) });
    const list = await fake.listPods();
    if (list.kind !== 'listed') throw new Error('list');
    await reaper.sweep(list.pods.map((p) => ({ ...p, volumeIds: ['vol-a', 'vol-b'] })));
    expect(recorded.map((r) => r.detail)).toEqual(['podwarden-x on volume vol-a, vol-b, not configured']);
    expect(logs.messages('info')).toEqual(['terminated orphan orphan (podwarden-x on volume vol-a, vol-b)']);
  });

  it('the dry-run Warning names the pod, its volumes and its age', async () => {
    const { fake, logs, reaper } = setup({ IDLE_DRY_RUN: 'true' });
    fake.setPod('orphan', { volumeId: 'vol-gone', name: 'podwarden-x', createdAt: minutesAgo(60) });
    const list = await fake.listPods();
    if (list.kind !== 'listed') throw new Error('list');
    await reaper.sweep(list.pods);
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: LEVEL.warn,
        podId: 'orphan',
        podName: 'podwarden-x',
        volumeIds: ['vol-gone'],
        ageMs: 3_600_000,
        dryRun: true,
      }),
    ]);
  });
});
