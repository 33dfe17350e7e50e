import type { PodStatus } from '@podwarden/policies';
import {
  ContractHarness,
  CREATE_MARKS,
  createRequest,
  PAST_TIMEOUT_MS,
  type FaultRequest,
} from './support/contract-harness';

interface LifecycleRow {
  readonly wire: Record<string, unknown>;
  /** Simulated ms after the create. */
  readonly at: number;
  readonly wireStatus: string;
  /** What the simulator must put in `runtime` for the row to mean what it says. */
  readonly wireRuntime: (runtime: unknown) => void;
  readonly status: PodStatus;
  readonly gpuCount?: number;
}

const isNull = (runtime: unknown): void => expect(runtime).toBeNull();

describe('contract: observePod against the simulator', () => {
  let h: ContractHarness;

  beforeAll(async () => {
    h = await ContractHarness.start();
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  /** Creates a pod through the client, so the lifecycle is the simulator's own. */
  const createdPod = async (): Promise<string> => {
    const created = await h.client.createPod(createRequest());
    if (created.podId === null) throw new Error(`create answered ${created.httpStatus}`);
    return created.podId;
  };
  const wirePod = async (podId: string): Promise<Record<string, unknown>> =>
    (await h.wire(`/pods/${encodeURIComponent(podId)}`)).json as Record<string, unknown>;

  it.each<[string, LifecycleRow]>([
    [
      'PROVISIONING reads as Provisioning',
      { wire: {}, at: 0, wireStatus: 'PROVISIONING', wireRuntime: isNull, status: 'Provisioning' },
    ],
    [
      'STARTING reads as Starting',
      {
        wire: {},
        at: CREATE_MARKS.starting,
        wireStatus: 'STARTING',
        wireRuntime: isNull,
        status: 'Starting',
      },
    ],
    [
      'RUNNING with runtime null while the GPU attaches reads as Starting, never Running',
      {
        wire: { attachRuntime: 'null' },
        at: CREATE_MARKS.attaching,
        wireStatus: 'RUNNING',
        wireRuntime: isNull,
        status: 'Starting',
      },
    ],
    [
      'RUNNING with runtime {} while the GPU attaches reads as Starting, never Running',
      {
        wire: { attachRuntime: 'empty' },
        at: CREATE_MARKS.attaching,
        wireStatus: 'RUNNING',
        wireRuntime: (runtime) => expect(runtime).toEqual({}),
        status: 'Starting',
      },
    ],
    [
      'RUNNING with uptime 0 and no GPUs while the GPU attaches reads as Starting, never Running with 0 GPUs',
      {
        wire: { attachRuntime: 'zero-uptime' },
        at: CREATE_MARKS.attaching,
        wireStatus: 'RUNNING',
        wireRuntime: (runtime) => expect(runtime).toMatchObject({ uptime: 0, gpus: [] }),
        status: 'Starting',
      },
    ],
    [
      'RUNNING with uptime > 0 reads as Running with the attached GPU count',
      {
        wire: {},
        at: CREATE_MARKS.attaching + 2000,
        wireStatus: 'RUNNING',
        wireRuntime: (runtime) => expect(runtime).toMatchObject({ uptime: 2, gpus: [{ id: 'gpu-0' }] }),
        status: 'Running',
        gpuCount: 1,
      },
    ],
    [
      'RUNNING with uptimeInSeconds > 0 (the alias) reads as Running with the attached GPU count',
      {
        wire: { uptimeKey: 'uptimeInSeconds' },
        at: CREATE_MARKS.attaching + 2000,
        wireStatus: 'RUNNING',
        wireRuntime: (runtime) => {
          expect(runtime).toMatchObject({ uptimeInSeconds: 2, gpus: [{ id: 'gpu-0' }] });
          expect(runtime).not.toHaveProperty('uptime');
        },
        status: 'Running',
        gpuCount: 1,
      },
    ],
  ])('%s', async (_rule, row) => {
    await h.reset({ wire: row.wire });
    const podId = await createdPod();
    h.advance(row.at);
    const wire = await wirePod(podId);
    expect(wire.status).toBe(row.wireStatus);
    row.wireRuntime(wire.runtime);

    const observation = await h.client.observePod(podId);

    expect(observation).toMatchObject({ kind: 'found', podId, status: row.status });
    if (row.gpuCount !== undefined) expect(observation).toMatchObject({ gpuCount: row.gpuCount });
  });

  it('asks GET /pods/{id} once with no query and no body', async () => {
    const podId = await h.seedPod({ id: 'pod-observed', status: 'RUNNING' });
    await h.client.observePod(podId);
    expect(await h.calls()).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/pods/pod-observed',
        query: {},
        body: null,
        status: 200,
      }),
    ]);
  });

  it('a pod id is path-escaped: an id with / and ? addresses that pod, not another resource', async () => {
    const podId = await h.seedPod({ id: 'odd/id?x', status: 'RUNNING' });
    expect(await h.client.observePod(podId)).toEqual({
      kind: 'found',
      podId: 'odd/id?x',
      status: 'Running',
      gpuCount: 1,
      realised: {
        volumeIds: ['vol-eu-ro-1'],
        dataCenterId: 'EU-RO-1',
        gpuId: 'NVIDIA RTX A6000',
        costPerHr: 0.49,
      },
    });
    expect((await h.calls())[0].path).toBe('/pods/odd%2Fid%3Fx');
  });

  it('a pod with two GPUs attached reads as Running with gpuCount 2 (runtime.gpus, not the request)', async () => {
    const podId = await h.seedPod({ status: 'RUNNING', gpuCount: 2 });
    expect(await h.client.observePod(podId)).toMatchObject({ status: 'Running', gpuCount: 2 });
  });

  it('a stopped pod (EXITED) reads as Exited', async () => {
    const podId = await createdPod();
    h.advance(CREATE_MARKS.serving);
    expect((await h.client.stopPod(podId)).ok).toBe(true);
    expect((await wirePod(podId)).status).toBe('EXITED');
    expect(await h.client.observePod(podId)).toMatchObject({ kind: 'found', status: 'Exited' });
  });

  it('ERROR reads as Error', async () => {
    const podId = await createdPod();
    await h.forceStatus(podId, 'ERROR');
    expect((await wirePod(podId)).status).toBe('ERROR');
    expect(await h.client.observePod(podId)).toMatchObject({ kind: 'found', status: 'Error' });
  });

  it('a terminating pod still listed (TERMINATED) reads as Terminated', async () => {
    await h.reset({ timings: { terminateMs: 5000 } });
    const podId = await createdPod();
    expect((await h.client.terminatePod(podId)).ok).toBe(true);
    expect((await wirePod(podId)).status).toBe('TERMINATED');
    expect(await h.client.observePod(podId)).toMatchObject({ kind: 'found', status: 'Terminated' });
  });

  it.each<[string, string, PodStatus]>([
    ['forced RUNNING with runtime null reads as Starting', 'null', 'Starting'],
    ['forced RUNNING with runtime {} reads as Starting', 'empty', 'Starting'],
    ['forced RUNNING with uptime 0 reads as Starting', 'zero-uptime', 'Starting'],
    ['forced RUNNING with a live runtime reads as Running', 'live', 'Running'],
  ])('%s (held, not just a passing phase)', async (_rule, runtime, status) => {
    const podId = await h.seedPod({ status: 'EXITED' });
    await h.forceStatus(podId, 'RUNNING', runtime);
    h.advance(60_000);
    expect(await h.client.observePod(podId)).toMatchObject({ kind: 'found', status });
  });

  it("a deleted pod is not-found: RunPod's problem+json 404", async () => {
    const podId = await createdPod();
    expect((await h.client.terminatePod(podId)).ok).toBe(true);
    const wire = await h.wire(`/pods/${podId}`);
    expect(wire).toMatchObject({
      status: 404,
      contentType: 'application/problem+json',
      json: { status: 404 },
    });
    expect(await h.client.observePod(podId)).toEqual({ kind: 'not-found', podId });
  });

  it('a pod id that never existed is not-found', async () => {
    expect(await h.client.observePod('never-was')).toEqual({ kind: 'not-found', podId: 'never-was' });
  });

  it.each<[string, Omit<FaultRequest, 'podId' | 'route'>, string]>([
    ['bare-404 (HTML page, not problem JSON)', { kind: 'bare-404' }, 'http 404 without problem details'],
    ['status 500', { kind: 'status', status: 500 }, 'http 500'],
    ['status 403', { kind: 'status', status: 403 }, 'http 403'],
    [
      'status 502 with an HTML body',
      { kind: 'status', status: 502, body: '<html>Bad gateway</html>' },
      'http 502',
    ],
    ['unreadable (500)', { kind: 'unreadable' }, 'http 500'],
  ])('an observe answered with %s is unreadable, never not-found', async (_name, fault, reason) => {
    const podId = await h.seedPod({ status: 'RUNNING' });
    await h.injectFault({ route: 'observe', podId, ...fault });
    expect(await h.client.observePod(podId)).toEqual({ kind: 'unreadable', podId, reason });
  });

  it('an observe delayed past the client timeout is unreadable', async () => {
    const podId = await h.seedPod({ status: 'RUNNING' });
    await h.injectFault({ route: 'observe', podId, kind: 'delay', delayMs: PAST_TIMEOUT_MS });
    expect(await h.impatient.observePod(podId)).toEqual({ kind: 'unreadable', podId, reason: 'timeout' });
    await h.waitForCall((call) => call.fault === 'delay');
  });

  it('a 2xx with a truncated body (malformed) is found with status Unknown: the pod answered, the policy waits', async () => {
    const podId = await h.seedPod({ status: 'RUNNING' });
    await h.injectFault({ route: 'observe', podId, kind: 'malformed' });
    expect(await h.client.observePod(podId)).toEqual({
      kind: 'found',
      podId,
      status: 'Unknown',
      gpuCount: 0,
    });
  });

  it('a 2xx pod object without an id (no-id) is still the pod asked for, with its status', async () => {
    const podId = await h.seedPod({ status: 'RUNNING' });
    await h.injectFault({ route: 'observe', podId, kind: 'no-id' });
    expect(await h.client.observePod(podId)).toEqual({
      kind: 'found',
      podId,
      status: 'Running',
      gpuCount: 1,
      realised: {
        volumeIds: ['vol-eu-ro-1'],
        dataCenterId: 'EU-RO-1',
        gpuId: 'NVIDIA RTX A6000',
        costPerHr: 0.49,
      },
    });
  });
});
