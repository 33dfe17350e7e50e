import { ControlPlaneCall } from './call-log';
import { Problem, SHORT_TIMINGS, SimHarness, WirePod } from './testing/sim-harness';

interface StateDump {
  readonly pods: readonly (WirePod & {
    readonly internal: { readonly lifecycle: { kind: string }; readonly vllm: unknown };
  })[];
  readonly config: { readonly listOrder: string; readonly timings: { readonly chatMs: number } };
  readonly apiKeyConfigured: boolean;
  readonly balance: number;
}

describe('/_sim admin routes', () => {
  let h: SimHarness;

  beforeEach(async () => {
    h = await SimHarness.start({ timings: SHORT_TIMINGS });
  });
  afterEach(() => h.close());

  it('GET /health answers ok', async () => {
    expect((await h.admin('GET', '/health')).json).toEqual({ ok: true });
  });

  it('POST /reset returns to the startup scenario: no pods, no faults, empty call log', async () => {
    await h.createPod();
    await h.admin('POST', '/faults', { route: 'list', kind: 'unreadable' });
    await h.admin('PUT', '/config', { listOrder: 'reverse' });
    expect((await h.admin('POST', '/reset')).status).toBe(200);
    expect(await h.listIds()).toEqual([]);
    expect((await h.admin('GET', '/faults')).json).toEqual({ faults: [] });
    const calls = ((await h.admin('GET', '/calls')).json as { calls: ControlPlaneCall[] }).calls;
    expect(calls.map((c) => c.path)).toEqual(['/pods']);
    expect(((await h.admin('GET', '/state')).json as StateDump).config.listOrder).toBe('created');
  });

  it('POST /reset with a body overrides the scenario, including seeded pods', async () => {
    const result = await h.admin('POST', '/reset', {
      listOrder: 'stale-first',
      pods: [
        { id: 'live1', status: 'RUNNING' },
        { id: 'old1', status: 'EXITED' },
      ],
    });
    expect(result.status).toBe(200);
    expect(await h.listIds()).toEqual(['old1', 'live1']);
  });

  it('POST /reset with a bad scenario is a 400 and changes nothing', async () => {
    const pod = await h.createPod();
    const result = await h.admin('POST', '/reset', {
      pods: [{ status: 'RUNNING', volumeId: 'vol-unknown' }],
    });
    expect(result.status).toBe(400);
    expect((result.json as Problem).detail).toMatch(/vol-unknown/);
    expect(await h.listIds()).toEqual([pod.id]);
  });

  it('POST /pods seeds an EXITED pod on our volume that the API then lists and can start', async () => {
    const seeded = await h.admin('POST', '/pods', {
      id: 'seeded1',
      status: 'EXITED',
      gpuId: 'NVIDIA A100 80GB PCIe',
    });
    expect(seeded.status).toBe(201);
    expect(seeded.json).toMatchObject({
      id: 'seeded1',
      status: 'EXITED',
      costPerHr: 1.59,
      runtime: null,
      dataCenterId: 'EU-RO-1',
      mounts: { network: [{ volumeId: 'vol-eu-ro-1', path: '/workspace' }] },
    });
    expect((await h.api('POST', '/pods/seeded1/action', { action: 'start' })).status).toBe(200);
    h.clock.advance(90);
    expect((await h.proxy('seeded1', '/metrics')).status).toBe(200);
  });

  it('a seeded RUNNING pod serves at once; with vllmReady false its model loads first', async () => {
    await h.admin('POST', '/pods', { id: 'ready', status: 'RUNNING' });
    await h.admin('POST', '/pods', { id: 'loading', status: 'RUNNING', vllmReady: false });
    expect((await h.observe('ready')).runtime?.uptime).toBe(1);
    expect((await h.proxy('ready', '/metrics')).status).toBe(200);
    expect((await h.proxy('loading', '/metrics')).status).toBe(502);
    h.clock.advance(50);
    expect((await h.proxy('loading', '/metrics')).status).toBe(200);
  });

  it('a seeded pod honours port, createdAt, name, volume null and cluster membership', async () => {
    await h.admin('POST', '/pods', {
      id: 'c1',
      name: 'stranger',
      status: 'RUNNING',
      port: 9000,
      createdAt: '2026-11-01T00:00:00Z',
      volumeId: null,
      dataCenterId: 'US-TX-3',
      gpuId: 'NVIDIA L40S',
      clusterId: 'cluster-1',
    });
    const pod = await h.observe('c1');
    expect(pod).toMatchObject({
      name: 'stranger',
      createdAt: '2026-11-01T00:00:00Z',
      mounts: { network: [] },
    });
    expect((await h.proxy('c1', '/metrics', { port: 9000 })).status).toBe(200);
    expect((await h.proxy('c1', '/metrics')).status).toBe(404);
    expect((await h.api('DELETE', '/pods/c1')).status).toBe(409);
  });

  it.each([
    ['a duplicate id', { id: 'dup', status: 'EXITED' }],
    ['an unknown status', { status: 'SLEEPING' }],
    ['an unpriced GPU', { status: 'EXITED', gpuId: 'Imaginary GPU' }],
    ['a bad createdAt', { status: 'EXITED', createdAt: 'yesterday' }],
  ])('seeding %s is a 400', async (_name, body) => {
    await h.admin('POST', '/pods', { id: 'dup', status: 'EXITED' });
    expect((await h.admin('POST', '/pods', body)).status).toBe(400);
  });

  it('POST /pods/{id}/status holds RUNNING with runtime null forever, until an action', async () => {
    const pod = await h.createPod();
    await h.admin('POST', `/pods/${pod.id}/status`, { status: 'RUNNING', runtime: 'null' });
    h.clock.advance(3_600_000);
    const observed = await h.observe(pod.id);
    expect(observed.status).toBe('RUNNING');
    expect(observed.runtime).toBeNull();
    expect((await h.proxy(pod.id, '/metrics')).status).toBe(502);
    expect((await h.api('POST', `/pods/${pod.id}/action`, { action: 'stop' })).status).toBe(200);
    expect((await h.observe(pod.id)).status).toBe('EXITED');
  });

  it('a pod forced into ERROR can be started again', async () => {
    const pod = await h.createPod();
    await h.admin('POST', `/pods/${pod.id}/status`, { status: 'ERROR' });
    expect((await h.observe(pod.id)).status).toBe('ERROR');
    expect((await h.api('POST', `/pods/${pod.id}/action`, { action: 'start' })).status).toBe(200);
  });

  it('GET /state dumps pods with their lifecycle and vLLM state, and never the key', async () => {
    const pod = await h.createPod();
    const state = (await h.admin('GET', '/state')).json as StateDump;
    expect(state.pods[0].id).toBe(pod.id);
    expect(state.pods[0].internal.lifecycle.kind).toBe('run');
    expect(state.pods[0].internal.vllm).toMatchObject({ running: 0, waiting: 0 });
    expect(state.apiKeyConfigured).toBe(false);
    expect(state.balance).toBe(50);
  });

  it('PUT /config changes timings, replaces the catalog, and refuses a bad patch with 400', async () => {
    const put = await h.admin('PUT', '/config', {
      timings: { chatMs: 5 },
      catalog: [
        {
          id: 'Only GPU',
          memory: 80,
          price: { secure: 0.1 },
          dataCenters: [{ id: 'EU-RO-1', availability: 'HIGH' }],
        },
      ],
    });
    expect(put.status).toBe(200);
    const catalog = (await h.api('GET', '/catalog/gpus?include=AVAILABILITY&product=POD')).json as {
      gpus: { id: string; availability: string }[];
    };
    expect(catalog.gpus).toEqual([
      {
        id: 'Only GPU',
        displayName: 'Only GPU',
        memory: 80,
        price: { secure: 0.1, community: null },
        availability: 'HIGH',
        dataCenters: [{ id: 'EU-RO-1', availability: 'HIGH' }],
      },
    ]);
    expect(((await h.admin('GET', '/state')).json as StateDump).config.timings.chatMs).toBe(5);
    for (const bad of [
      { timings: { chatMs: -1 } },
      { speed: 0 },
      { listOrder: 'random' },
      { pods: [] },
      { colour: 1 },
    ]) {
      expect((await h.admin('PUT', '/config', bad)).status).toBe(400);
    }
  });

  it('GET /calls/held counts calls a delay fault holds until each is answered and logged', async () => {
    const pod = await h.createPod();
    await h.admin('POST', '/faults', { route: 'terminate', podId: pod.id, kind: 'delay', delayMs: 1000 });
    const held = async () => ((await h.admin('GET', '/calls/held')).json as { held: number }).held;
    const deletes = async () =>
      ((await h.admin('GET', '/calls?method=DELETE')).json as { calls: ControlPlaneCall[] }).calls.length;
    expect(await held()).toBe(0);
    const late = h.api('DELETE', `/pods/${pod.id}`);
    for (let waited = 0; (await held()) === 0 && waited < 250; waited += 10) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect({ held: await held(), logged: await deletes() }).toEqual({ held: 1, logged: 0 });
    expect((await late).status).toBe(204);
    expect({ held: await held(), logged: await deletes() }).toEqual({ held: 0, logged: 1 });
  });

  it('unknown admin routes are 404 problems and bad JSON is a 400 problem', async () => {
    expect((await h.admin('GET', '/nope')).status).toBe(404);
    const bad = await h.admin('POST', '/faults', '{oops');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toBe('application/problem+json');
  });
});
