import type { RunPodInsights } from '@podwarden/runpod-client';
import { UnexpectedCallError, connectTestRedis, deleteKeysUnder } from '@podwarden/testing';
import { CLOCK, RUNPOD_INSIGHTS } from '../app/app-tokens';
import { ActionLog } from '../records/action-log';
import { StopService } from '../stop/stop-service';
import { StopModule } from '../stop/stop.module';
import { UsageStore } from '../usage/usage-store';
import { WakeGate } from '../wake/wake-gate';
import { newTestService, type TestService } from './new-test-service';

const AT = Date.parse('2026-12-07T09:00:00.000Z');

describe(newTestService.name, () => {
  const built: Array<TestService<unknown>> = [];
  afterEach(async () => {
    await Promise.all(built.splice(0).map((t) => t.close()));
  });
  async function build<T>(...args: Parameters<typeof newTestService<T>>): Promise<TestService<T>> {
    const t = await newTestService<T>(...args);
    built.push(t);
    return t;
  }

  it('builds StopService from its own module on the test core: fake RunPod, real Redis records, moved clock', async () => {
    const t = await build(StopService);
    t.clock.set(AT);
    t.fakeRunPod.setPod('p1');

    const result = await t.service.stopVolume(t.config.pods[0], 'idle');

    expect(result).toMatchObject({ kind: 'stopped', ok: true });
    expect(t.fakeRunPod.billableCalls).toEqual(['stop p1']);
    expect(await t.get<ActionLog>(ActionLog).recent('qwen', 5)).toEqual([
      expect.objectContaining({
        podId: 'p1',
        action: 'Stop',
        trigger: 'idle',
        at: new Date(AT).toISOString(),
      }),
    ]);
    expect(t.logs.messages('info')).toContain('stopped pod p1 (idle)');
    const counted = await t.metrics.registry.getSingleMetric('podwarden_stop_actions_total')!.get();
    expect(counted.values).toEqual([expect.objectContaining({ value: 1 })]);
    expect(t.config.redis.prefix).toBe(t.prefix);
  });

  it('the same with the module named by the caller', async () => {
    const t = await build(StopService, { imports: [StopModule], prefix: 'named' });
    expect(t.service).toBeInstanceOf(StopService);
    expect(t.prefix).toMatch(/^pwtest-named-/);
  });

  it('an override replaces the dependency the service is given', async () => {
    const fenced: string[] = [];
    const gate = { stopWakes: async (volumeId: string) => (fenced.push(volumeId), 7) };
    const t = await build(StopService, { overrides: [[WakeGate, gate]] });
    t.fakeRunPod.setPod('p1');

    await t.service.stopVolume(t.config.pods[0], 'manual');

    expect(fenced).toEqual(['vol-1']);
    expect(t.get(WakeGate)).toBe(gate);
  });

  it('a core token can be overridden too (the clock)', async () => {
    const t = await build(StopService, { overrides: [[CLOCK, () => AT - 1]] });
    t.fakeRunPod.setPod('p1');
    await t.service.stopPods(t.config.pods[0], ['p1'], 'manual');
    expect((await t.get<ActionLog>(ActionLog).recent('qwen', 1))[0].at).toBe(new Date(AT - 1).toISOString());
  });

  it('a store is built from the module exporting it, and the spec env reaches its config', async () => {
    const t = await build(UsageStore, { env: { USAGE_RETENTION_DAYS: '3' } });
    await t.service.recordStop('qwen', { at: Date.now(), trigger: 'manual' });
    expect((await t.service.read('qwen', 0)).stops).toHaveLength(1);
    expect(t.config.rhythm.usageRetentionDays).toBe(3);
  });

  it('RunPod insights nobody scripted refuse the call', async () => {
    const t = await build(StopService);
    await expect(t.get<RunPodInsights>(RUNPOD_INSIGHTS).podLogs('p1')).rejects.toBeInstanceOf(
      UnexpectedCallError,
    );
  });

  it('close() deletes every key under the prefix and quits its Redis', async () => {
    const t = await newTestService(StopService);
    t.fakeRunPod.setPod('p1');
    await t.service.stopVolume(t.config.pods[0], 'manual');
    const other = connectTestRedis();
    try {
      expect((await other.keys(`${t.prefix}:*`)).length).toBeGreaterThan(0);

      await t.close();

      expect(await other.keys(`${t.prefix}:*`)).toEqual([]);
      expect(t.redis.status).toBe('end');
    } finally {
      await deleteKeysUnder(other, t.prefix);
      await other.quit();
    }
  });
});
