import { INITIAL_IDLE_STATE, type IdleState, type PodConfig } from '@podwarden/policies';
import { EMPTY_IDLE_RECORD, IdleStateStore } from '@podwarden/platform';
import {
  newTestService,
  type TestService,
  type TestServiceOptions,
} from '@podwarden/platform/testing/new-test-service';
import { testConfig, type FakeRunPod } from '@podwarden/testing';
import { PodReadiness } from './pod-readiness';

const ENV = { CHECK_SECONDS: '30' };
const POD: PodConfig = testConfig(ENV).pods[0];
const READY_SINCE = Date.parse('2026-12-01T12:00:00Z');
const URL_P1 = 'https://p1-8000.proxy.runpod.net';

let built: TestService<PodReadiness> | null = null;
afterEach(async () => {
  jest.restoreAllMocks();
  await built?.close();
  built = null;
});

/** PodReadiness as the proxy builds it: the idle state in real Redis (as the idle monitor writes it), RunPod as FakeRunPod. */
async function setup(options: Pick<TestServiceOptions, 'env' | 'overrides'> = {}) {
  built = await newTestService(PodReadiness, {
    prefix: 'pod-readiness',
    overrides: options.overrides,
    env: { ...ENV, ...options.env },
  });
  const { service: readiness, fakeRunPod: fake, config } = built;
  const store = built.get<IdleStateStore>(IdleStateStore);
  const state = (fields: Partial<IdleState>) =>
    store.save(POD.name, { ...EMPTY_IDLE_RECORD, state: { ...INITIAL_IDLE_STATE, ...fields } });
  const ready = (readySince = READY_SINCE) => state({ phase: 'Ready', readySince });
  return { store, fake, readiness, state, ready, config };
}

describe(PodReadiness.name, () => {
  it('no idle state yet: cold and Down, RunPod not asked', async () => {
    const { fake, readiness } = await setup();
    await expect(readiness.read(POD)).resolves.toEqual({ kind: 'cold', phase: 'Down' });
    expect(fake.calls).toEqual([]);
  });

  it.each<[string, Partial<IdleState>]>([
    ['Booting', { phase: 'Booting' }],
    ['Down with a readySince left over', { phase: 'Down', readySince: READY_SINCE }],
    ['Ready without a readySince', { phase: 'Ready', readySince: null }],
  ])('%s: cold in that phase, RunPod not asked', async (_what, fields) => {
    const { fake, readiness, state } = await setup();
    await state(fields);
    await expect(readiness.read(POD)).resolves.toEqual({ kind: 'cold', phase: fields.phase });
    expect(fake.calls).toEqual([]);
  });

  it("Ready: the serving pod's proxy address, looked up once per boot and shared by every request of it", async () => {
    const { fake, readiness, ready } = await setup();
    fake.setPod('p1');
    await ready();
    const [first, second] = await Promise.all([readiness.read(POD), readiness.read(POD)]);
    expect(first).toEqual({ kind: 'ready', baseUrl: URL_P1 });
    expect(second).toEqual(first);
    expect(fake.takeCalls()).toEqual(['list', 'observe p1']);
    await expect(readiness.read(POD)).resolves.toEqual({ kind: 'ready', baseUrl: URL_P1 });
    expect(fake.takeCalls()).toEqual([]);
  });

  it('a new boot (another readySince) is looked up again', async () => {
    const { fake, readiness, ready } = await setup();
    fake.setPod('p1');
    await ready();
    await readiness.read(POD);
    fake.removePod('p1').setPod('p2');
    await ready(READY_SINCE + 60_000);
    await expect(readiness.read(POD)).resolves.toEqual({
      kind: 'ready',
      baseUrl: 'https://p2-8000.proxy.runpod.net',
    });
  });

  it('forget: the next request looks the address up again', async () => {
    const { fake, readiness, ready } = await setup();
    fake.setPod('p1');
    await ready();
    await readiness.read(POD);
    fake.takeCalls();
    readiness.forget(POD);
    await readiness.read(POD);
    expect(fake.takeCalls()).toEqual(['list', 'observe p1']);
  });

  it('the serving pod is the Running one with a GPU, whichever is listed first', async () => {
    const { fake, readiness, ready } = await setup();
    fake.setPod('p0', { observation: 'Exited', listedStatus: 'EXITED' }).setPod('p1');
    await ready();
    await expect(readiness.read(POD)).resolves.toEqual({ kind: 'ready', baseUrl: URL_P1 });
  });

  it.each<[string, Parameters<FakeRunPod['setPod']>[1]]>([
    ['Exited', { observation: 'Exited', listedStatus: 'EXITED' }],
    ['Running without a GPU', { gpuCount: 0 }],
    ['Starting', { observation: 'Starting' }],
    ['unreadable on its own', { observation: 'unreadable' }],
  ])('Ready in Redis but the pod is %s: cold and Down, and not remembered', async (_what, pod) => {
    const { fake, readiness, ready } = await setup();
    fake.setPod('p1', pod);
    await ready();
    await expect(readiness.read(POD)).resolves.toEqual({ kind: 'cold', phase: 'Down' });
    fake.setPod('p1', { observation: 'Running', listedStatus: 'RUNNING', gpuCount: 1 });
    await expect(readiness.read(POD)).resolves.toEqual({ kind: 'ready', baseUrl: URL_P1 });
  });

  it('Ready in Redis but nothing on the volume (stopped since the last tick): cold and Down', async () => {
    const { fake, readiness, ready } = await setup();
    fake.setPod('elsewhere', { volumeId: 'vol-2' });
    await ready();
    await expect(readiness.read(POD)).resolves.toEqual({ kind: 'cold', phase: 'Down' });
    expect(fake.takeCalls()).toEqual(['list']);
  });

  it('an unreadable list: unresolved with the reason (no wake), and tried again on the next request', async () => {
    const { fake, readiness, ready } = await setup();
    fake.setPod('p1').listFails('http 503');
    await ready();
    await expect(readiness.read(POD)).resolves.toEqual({ kind: 'unresolved', reason: 'http 503' });
    fake.listReadable();
    fake.takeCalls();
    await expect(readiness.read(POD)).resolves.toEqual({ kind: 'ready', baseUrl: URL_P1 });
    expect(fake.takeCalls()).toEqual(['list', 'observe p1']);
  });

  it('a Redis that does not answer in time is an error, neither ready nor cold', async () => {
    const silent = { load: () => new Promise<never>(() => undefined) };
    const { readiness, config } = await setup({
      env: { REDIS_READ_TIMEOUT_MS: '20' },
      overrides: [[IdleStateStore, silent]],
    });
    await expect(readiness.read(POD)).rejects.toThrow(
      `idle state read timed out after ${config.tuning.redisReadTimeoutMs} ms`,
    );
  });

  describe('markNotServing', () => {
    it('makes this boot cold (Booting) for two ticks, then it is looked up again', async () => {
      const { fake, readiness, ready } = await setup();
      fake.setPod('p1');
      await ready();
      await readiness.read(POD);
      const now = jest.spyOn(Date, 'now').mockReturnValue(READY_SINCE + 1000);
      await readiness.markNotServing(POD);
      fake.takeCalls();
      await expect(readiness.read(POD)).resolves.toEqual({ kind: 'cold', phase: 'Booting' });
      now.mockReturnValue(READY_SINCE + 1000 + 2 * 30_000 - 1);
      await expect(readiness.read(POD)).resolves.toEqual({ kind: 'cold', phase: 'Booting' });
      expect(fake.takeCalls()).toEqual([]);
      now.mockReturnValue(READY_SINCE + 1000 + 2 * 30_000);
      await expect(readiness.read(POD)).resolves.toEqual({ kind: 'ready', baseUrl: URL_P1 });
      // Forgotten when marked: the address is read again, not served from before.
      expect(fake.takeCalls()).toEqual(['list', 'observe p1']);
    });

    it('ends as soon as the idle monitor records a new boot', async () => {
      const { fake, readiness, ready } = await setup();
      fake.setPod('p1');
      await ready();
      await readiness.markNotServing(POD);
      await expect(readiness.read(POD)).resolves.toEqual({ kind: 'cold', phase: 'Booting' });
      await ready(READY_SINCE + 1);
      await expect(readiness.read(POD)).resolves.toEqual({ kind: 'ready', baseUrl: URL_P1 });
    });

    it('with no boot recorded marks nothing: a later boot is served at once', async () => {
      const { fake, readiness, state, ready } = await setup();
      fake.setPod('p1');
      await state({ phase: 'Booting', readySince: null });
      await readiness.markNotServing(POD);
      await ready();
      await expect(readiness.read(POD)).resolves.toEqual({ kind: 'ready', baseUrl: URL_P1 });
    });
  });
});
