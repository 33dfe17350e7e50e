import { Problem, SimHarness, VALID_CREATE_BODY, WirePod } from './testing/sim-harness';

const network = (volumeId: string): { network: { volumeId: string; path: string }[] } => ({
  network: [{ volumeId, path: '/workspace' }],
});

describe('POST /pods validation', () => {
  let h: SimHarness;

  beforeEach(async () => {
    h = await SimHarness.start();
  });
  afterEach(() => h.close());

  it('a valid body on the eligible A6000 answers 201 with the pod object, priced at the secure price', async () => {
    const result = await h.api('POST', '/pods', VALID_CREATE_BODY);
    expect(result.status).toBe(201);
    const pod = result.json as WirePod;
    expect(pod).toEqual({
      id: expect.stringMatching(/^[a-z0-9]{14}$/) as unknown,
      name: VALID_CREATE_BODY.name,
      status: 'PROVISIONING',
      createdAt: '2026-11-30T10:00:00Z',
      costPerHr: 0.49,
      gpu: { id: 'NVIDIA RTX A6000', count: 1 },
      runtime: null,
      mounts: { network: [{ volumeId: 'vol-eu-ro-1', path: '/workspace' }] },
      dataCenterId: 'EU-RO-1',
      templateId: 'tpl-vllm-qwen',
    });
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['unknown GPU', { gpu: { id: 'NVIDIA GeForce GTX 1080', count: 1 } }, /unknown GPU type/],
    ['unknown template', { templateId: 'tpl-nope' }, /template tpl-nope not found/],
    ['GPU absent from the datacenter', { gpu: { id: 'NVIDIA H100 80GB HBM3', count: 1 } }, /no capacity/],
    [
      'GPU with availability NONE there',
      { gpu: { id: 'NVIDIA RTX 6000 Ada Generation', count: 1 } },
      /no capacity/,
    ],
    ['GPU with no secure price', { gpu: { id: 'NVIDIA A40', count: 1 } }, /SECURE/],
    ['unknown volume', { mounts: network('vol-nope') }, /network volume vol-nope not found/],
    ['volume in another datacenter', { mounts: network('vol-us-tx-3') }, /is in US-TX-3/],
    ['volume datacenter not in dataCenterIds', { dataCenterIds: ['US-TX-3'] }, /is in EU-RO-1/],
    ['unknown datacenter id', { dataCenterIds: ['MARS-1'] }, /unknown data center MARS-1/],
    ['community cloud', { cloud: 'COMMUNITY' }, /body.cloud/],
    ['missing cloud', { cloud: undefined }, /body.cloud/],
    ['empty dataCenterIds', { dataCenterIds: [] }, /at least one/],
    ['missing templateId', { templateId: undefined }, /body.templateId/],
    ['gpu count zero', { gpu: { id: 'NVIDIA RTX A6000', count: 0 } }, /body.gpu.count/],
    ['gpu as a string', { gpu: 'NVIDIA RTX A6000' }, /body.gpu/],
    ['an undocumented field', { gpuTypeIds: ['NVIDIA RTX A6000'] }, /unknown field\(s\) gpuTypeIds/],
    [
      'two network volumes',
      { mounts: { network: [...network('vol-eu-ro-1').network, ...network('vol-eu-ro-1').network] } },
      /at most one/,
    ],
    [
      'a relative mount path',
      { mounts: { network: [{ volumeId: 'vol-eu-ro-1', path: 'workspace' }] } },
      /absolute path/,
    ],
  ])('%s → 400 problem', async (_name, override, detail) => {
    const body: Record<string, unknown> = { ...VALID_CREATE_BODY, ...override };
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    const result = await h.api('POST', '/pods', body);
    expect(result.status).toBe(400);
    expect(result.headers.get('content-type')).toBe('application/problem+json');
    expect((result.json as Problem).detail).toMatch(detail);
    expect(await h.listIds()).toEqual([]);
  });

  it.each([
    ['not JSON', '{"name": '],
    ['empty', ''],
    ['a JSON array', '[]'],
  ])('a body that is %s → 400 problem', async (_name, raw) => {
    const result = await h.api('POST', '/pods', raw);
    expect(result.status).toBe(400);
    expect((result.json as Problem).status).toBe(400);
  });

  it('a balance below one hour of the GPU price → 402 problem and no pod', async () => {
    await h.admin('PUT', '/config', { balance: 0.48 });
    const result = await h.api('POST', '/pods', VALID_CREATE_BODY);
    expect(result.status).toBe(402);
    expect((result.json as Problem).detail).toMatch(/insufficient balance/);
    expect(await h.listIds()).toEqual([]);
  });

  it('a balance of exactly one hour of the GPU price is enough', async () => {
    await h.admin('PUT', '/config', { balance: 0.49 });
    expect((await h.api('POST', '/pods', VALID_CREATE_BODY)).status).toBe(201);
  });

  it('the insufficient-balance threshold is configurable in hours', async () => {
    await h.admin('PUT', '/config', { balance: 2, insufficientBalanceHours: 5 });
    expect((await h.api('POST', '/pods', VALID_CREATE_BODY)).status).toBe(402);
  });

  it('a pod with several GPUs costs the secure price times the count', async () => {
    const pod = await h.createPod({ gpu: { id: 'NVIDIA RTX A6000', count: 2 } });
    expect(pod.costPerHr).toBe(0.98);
    expect(pod.gpu.count).toBe(2);
  });

  it('a pod without a network volume is placed in the first listed datacenter with capacity', async () => {
    const pod = await h.createPod({
      mounts: undefined,
      dataCenterIds: ['EU-RO-1', 'US-GA-1'],
      gpu: { id: 'NVIDIA RTX 6000 Ada Generation', count: 1 },
    });
    expect(pod.dataCenterId).toBe('US-GA-1');
    expect(pod.mounts.network).toEqual([]);
  });
});
