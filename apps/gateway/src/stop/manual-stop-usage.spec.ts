import type { VolumeStopResult } from '@podwarden/platform';
import { UsageStore } from '@podwarden/platform';
import { newTestService, type TestService } from '@podwarden/platform/testing/new-test-service';
import { OUR_VOLUME } from '@podwarden/testing';
import { OPERATOR, deferred, startGateway, until, type GatewayHarness } from '../testing/gateway-harness';
import { ManualStopUsage, manualStopMark } from './manual-stop-usage';

const AT = 1_764_000_000_000;
const pod = (podId: string, ok: boolean, called: boolean) => ({
  podId,
  ok,
  called,
  httpStatus: called ? (ok ? 200 : 500) : 0,
});

describe(manualStopMark.name, () => {
  it.each<[string, VolumeStopResult, boolean]>([
    ['a running pod stopped', { kind: 'stopped', ok: true, pods: [pod('a', true, true)] }, true],
    [
      'one stopped, one refused',
      { kind: 'stopped', ok: false, pods: [pod('a', true, true), pod('b', false, true)] },
      true,
    ],
    ['every pod already down (no call)', { kind: 'stopped', ok: true, pods: [pod('a', true, false)] }, false],
    ['every stop refused', { kind: 'stopped', ok: false, pods: [pod('a', false, true)] }, false],
    ['no pod on the volume', { kind: 'no-pod' }, false],
    ['the lookup unreadable', { kind: 'unreadable', reason: 'http 502' }, false],
    ['unconfigured', { kind: 'unconfigured' }, false],
  ])('%s: a stop to record is %s', (_, result, recorded) => {
    expect(manualStopMark(result, AT)).toEqual(recorded ? { at: AT, trigger: 'manual' } : null);
  });
});

describe(ManualStopUsage.name, () => {
  let built: TestService<ManualStopUsage> | null = null;
  afterEach(async () => {
    await built?.close();
    built = null;
  });
  const stopped: VolumeStopResult = { kind: 'stopped', ok: true, pods: [pod('a', true, true)] };

  it("writes an accepted stop to the pod's usage record in Redis, at the time given", async () => {
    built = await newTestService(ManualStopUsage);
    const qwen = built.config.pods[0];

    await built.service.record(qwen, stopped, AT);
    await built.service.record(qwen, { kind: 'no-pod' }, AT + 1);

    const record = await built.get<UsageStore>(UsageStore).read(qwen.name, AT - 1);
    expect(record.stops).toEqual([{ at: AT, trigger: 'manual' }]);
  });

  it('a write Redis refuses is a Warning, never a rejection', async () => {
    const refusing = { recordStop: () => Promise.reject(new Error('OOM command not allowed')) };
    built = await newTestService(ManualStopUsage, { overrides: [[UsageStore, refusing]] });

    await expect(built.service.record(built.config.pods[0], stopped, AT)).resolves.toBeUndefined();

    expect(built.logs.find('manual stop not written')).toEqual([
      expect.objectContaining({ level: 40, pod: 'qwen', err: 'OOM command not allowed' }),
    ]);
  });
});

/** Polls the usage route until `count` stops are there (the write follows the answer). */
async function stopsOnceThere(gw: GatewayHarness, count: number): Promise<Array<Record<string, unknown>>> {
  const deadline = Date.now() + 4_000;
  for (;;) {
    const stops = (await gw.request('GET', '/api/pods/qwen/usage', OPERATOR)).body.stops as Array<
      Record<string, unknown>
    >;
    if (stops.length >= count || Date.now() > deadline) return stops;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('POST …/stop writes the stop to the usage record (real Redis)', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway('stop-usage');
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.resetRunPod());

  it('a stop of a running pod is in GET …/usage with trigger manual, at the time of the stop', async () => {
    expect((await gw.request('GET', '/api/pods/qwen/usage', OPERATOR)).body.stops).toEqual([]);
    gw.fake.setPod('up', { volumeId: OUR_VOLUME, listedStatus: 'RUNNING' });
    const asked = Date.now();
    expect((await gw.request('POST', '/api/pods/qwen/stop', OPERATOR)).status).toBe(200);
    const answered = Date.now();
    const stops = await stopsOnceThere(gw, 1);
    expect(stops).toEqual([{ at: expect.any(String), trigger: 'manual' }]);
    expect(Date.parse(String(stops[0].at))).toBeGreaterThanOrEqual(asked);
    expect(Date.parse(String(stops[0].at))).toBeLessThanOrEqual(answered + 1_000);
    // The record the idle policy reads holds it too.
    const record = await gw.app.get(UsageStore).read('qwen', asked - 1);
    expect(record.stops.map((s) => s.trigger)).toEqual(['manual']);
  });

  it('nothing is recorded when nothing was stopped: the pod already down, or every stop refused', async () => {
    const before = (await stopsOnceThere(gw, 0)).length;
    gw.fake.setPod('down', { volumeId: OUR_VOLUME, listedStatus: 'EXITED' });
    expect((await gw.request('POST', '/api/pods/qwen/stop', OPERATOR)).body).toMatchObject({ ok: true });
    await gw.resetRunPod();
    gw.fake.setPod('stuck', { volumeId: OUR_VOLUME, stop: 'refused' });
    expect((await gw.request('POST', '/api/pods/qwen/stop', OPERATOR)).body).toMatchObject({ ok: false });
    // A stop that is recorded afterwards shows the two before it wrote nothing.
    await gw.resetRunPod();
    gw.fake.setPod('later', { volumeId: OUR_VOLUME, listedStatus: 'RUNNING' });
    await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
    expect(await stopsOnceThere(gw, before + 1)).toHaveLength(before + 1);
  });
});

describe('POST …/stop when the usage write hangs and then fails', () => {
  it('answers the stop without waiting for the write, then logs a warning; the stop is made', async () => {
    const held = deferred();
    let writes = 0;
    // A store whose write is held by the spec, then fails: Redis out of memory, say.
    const failingUsage = {
      recordStop: async () => {
        writes += 1;
        await held.promise;
        throw new Error('OOM command not allowed');
      },
    };
    const gw = await startGateway('stop-usage-fails', {
      // A read timeout far beyond the spec's: a stop that waited for the write would not answer.
      env: { REDIS_READ_TIMEOUT_MS: '60000' },
      overrides: [{ token: UsageStore, value: failingUsage }],
    });
    try {
      gw.fake.setPod('up', { volumeId: OUR_VOLUME, listedStatus: 'RUNNING' });
      const answer = await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ ok: true, pods: [{ podId: 'up', ok: true }] });
      expect(gw.fake.billableCalls).toEqual(['stop up']);
      expect(writes).toBe(1);
      const warning = 'manual stop not written to the usage record';
      expect(gw.logs.find(warning)).toEqual([]);
      held.release();
      await until(() => gw.logs.messages('warn').some((m) => m.startsWith(warning)), 'the warning');
      expect(gw.logs.find(warning)[0]).toMatchObject({ pod: 'qwen', err: 'OOM command not allowed' });
    } finally {
      await gw.close();
    }
  });
});
