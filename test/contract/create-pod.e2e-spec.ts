import type { CreatePodRequest } from '@podwarden/runpod-client';
import {
  ContractHarness,
  createRequest,
  DATACENTER_ID,
  OTHER_VOLUME_ID,
  PAST_TIMEOUT_MS,
  PLACEABLE_GPU,
  TEMPLATE_ID,
  VOLUME_ID,
  type FaultRequest,
} from './support/contract-harness';

describe('contract: createPod against the simulator', () => {
  let h: ContractHarness;

  beforeAll(async () => {
    h = await ContractHarness.start();
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  /** Whether a pod now sits on our volume, asked the way the wake asks it. */
  const podsOnVolume = async (): Promise<readonly string[]> => {
    const { lookup } = await h.client.lookupByVolume(VOLUME_ID);
    if (lookup.kind === 'unreadable') throw new Error(`lookup unreadable: ${lookup.reason}`);
    return lookup.kind === 'found' ? lookup.podIds : [];
  };

  it('posts exactly the documented body once: secure cloud, one GPU, our volume at /workspace, no image', async () => {
    await h.client.createPod(createRequest());
    expect(await h.calls()).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/pods',
        query: {},
        body: {
          name: 'podwarden-qwen-20261130T100000Z',
          templateId: TEMPLATE_ID,
          cloud: 'SECURE',
          dataCenterIds: [DATACENTER_ID],
          gpu: { id: PLACEABLE_GPU, count: 1 },
          mounts: { network: [{ volumeId: VOLUME_ID, path: '/workspace' }] },
        },
        status: 201,
        authorized: true,
        fault: null,
      }),
    ]);
  });

  it('201 returns the id of the pod now on the volume', async () => {
    const result = await h.client.createPod(createRequest());
    expect(result).toEqual({
      httpStatus: 201,
      podId: expect.stringMatching(/^[a-z0-9]{14}$/),
      retryAfterSeconds: null,
      detail: null,
    });
    expect(await podsOnVolume()).toEqual([result.podId]);
  });

  it.each<[string, FaultRequest, Record<string, unknown>]>([
    [
      'without the requested volume (no-volume)',
      { route: 'create', kind: 'no-volume' },
      { volumeIds: [], gpuId: PLACEABLE_GPU },
    ],
    [
      'on another GPU (other-gpu)',
      { route: 'create', kind: 'other-gpu', gpuId: 'NVIDIA L40S' },
      { volumeIds: [VOLUME_ID], gpuId: 'NVIDIA L40S' },
    ],
  ])('a 201 create placed %s: the observation reports what was realised', async (_, fault, realised) => {
    await h.injectFault(fault);
    const result = await h.client.createPod(createRequest());
    expect(result.httpStatus).toBe(201);
    const observed = await h.client.observePod(String(result.podId));
    expect(observed.kind === 'found' && observed.realised).toMatchObject({
      dataCenterId: DATACENTER_ID,
      ...realised,
    });
  });

  it.each<[string, Partial<CreatePodRequest>, RegExp]>([
    ['an unknown GPU', { gpuId: 'NVIDIA Imaginary 1000' }, /unknown GPU type NVIDIA Imaginary 1000/],
    ['an unknown template', { templateId: 'tpl-missing' }, /template tpl-missing not found/],
    [
      'a GPU with no capacity in the datacenter',
      { gpuId: 'NVIDIA RTX 6000 Ada Generation' },
      /no capacity for GPU type NVIDIA RTX 6000 Ada Generation in EU-RO-1/,
    ],
    [
      'a GPU not offered in the datacenter at all',
      { gpuId: 'NVIDIA H100 80GB HBM3' },
      /no capacity for GPU type NVIDIA H100 80GB HBM3 in EU-RO-1/,
    ],
    ['a GPU without a secure-cloud offer', { gpuId: 'NVIDIA A40' }, /not offered in the SECURE cloud/],
    [
      'a volume in another datacenter',
      { volumeId: OTHER_VOLUME_ID },
      /network volume vol-us-tx-3 is in US-TX-3, which is not in dataCenterIds \[EU-RO-1\]/,
    ],
  ])('%s is 400 with the problem detail, no id and no pod', async (_name, overrides, detail) => {
    const result = await h.client.createPod(createRequest(overrides));
    expect(result).toEqual({
      httpStatus: 400,
      podId: null,
      retryAfterSeconds: null,
      detail: expect.stringMatching(detail),
    });
    expect(await podsOnVolume()).toEqual([]);
  });

  it('an account below the deploy balance is 402 with the problem detail and no pod', async () => {
    await h.putConfig({ balance: 0.1 });
    expect(await h.client.createPod(createRequest())).toEqual({
      httpStatus: 402,
      podId: null,
      retryAfterSeconds: null,
      detail: expect.stringMatching(/^insufficient balance: 0\.10 USD/),
    });
    expect(await podsOnVolume()).toEqual([]);
  });

  it.each<[string, Omit<FaultRequest, 'route'>, number, number | null]>([
    ['429 with Retry-After in delta seconds', { kind: 'status', status: 429, retryAfter: 7 }, 429, 7],
    ['429 with Retry-After 0', { kind: 'status', status: 429, retryAfter: 0 }, 429, 0],
    ['429 without Retry-After', { kind: 'status', status: 429 }, 429, null],
    ['503 with Retry-After in delta seconds', { kind: 'status', status: 503, retryAfter: 30 }, 503, 30],
    ['403 (passed through untouched)', { kind: 'status', status: 403 }, 403, null],
    ['422 (passed through untouched)', { kind: 'status', status: 422 }, 422, null],
    ['500 (passed through untouched)', { kind: 'status', status: 500 }, 500, null],
    ['unreadable (500, nothing placed)', { kind: 'unreadable' }, 500, null],
    ['bare-404 (an HTML page)', { kind: 'bare-404' }, 404, null],
  ])(
    'a create answered %s returns that raw status, the Retry-After seconds, no id and places no pod',
    async (_name, fault, httpStatus, retryAfterSeconds) => {
      await h.injectFault({ route: 'create', ...fault });
      const result = await h.client.createPod(createRequest());
      expect(result).toMatchObject({ httpStatus, podId: null, retryAfterSeconds });
      expect(await podsOnVolume()).toEqual([]);
    },
  );

  it('429 with Retry-After as an HTTP date is resolved to seconds against the response Date', async () => {
    const retryAt = new Date(Math.floor(Date.now() / 1000) * 1000 + 120_000).toUTCString();
    await h.injectFault({ route: 'create', kind: 'status', status: 429, retryAfter: retryAt });
    const result = await h.client.createPod(createRequest());
    expect(result.httpStatus).toBe(429);
    // The server's Date header has whole seconds and may tick over between the two readings.
    expect(result.retryAfterSeconds).toBeGreaterThanOrEqual(118);
    expect(result.retryAfterSeconds).toBeLessThanOrEqual(120);
  });

  it('a 503 after the create took effect (after-effect) returns 503, and the pod exists on the volume', async () => {
    await h.injectFault({ route: 'create', kind: 'after-effect', status: 503 });
    const result = await h.client.createPod(createRequest());
    expect(result).toMatchObject({ httpStatus: 503, podId: null });
    expect(await podsOnVolume()).toHaveLength(1);
  });

  it('a 2xx without an id (no-id) returns 201 with podId null, and the pod exists on the volume', async () => {
    await h.injectFault({ route: 'create', kind: 'no-id' });
    expect(await h.client.createPod(createRequest())).toEqual({
      httpStatus: 201,
      podId: null,
      retryAfterSeconds: null,
      detail: 'no pod id in the response',
    });
    expect(await podsOnVolume()).toHaveLength(1);
  });

  it('a 2xx with a truncated body (malformed) returns 201 with podId null, and the pod exists on the volume', async () => {
    await h.injectFault({ route: 'create', kind: 'malformed' });
    expect(await h.client.createPod(createRequest())).toMatchObject({ httpStatus: 201, podId: null });
    expect(await podsOnVolume()).toHaveLength(1);
  });

  it('a create delayed past the client timeout is status 0 (never a clean refusal): the pod may still appear', async () => {
    await h.injectFault({ route: 'create', kind: 'delay', delayMs: PAST_TIMEOUT_MS });
    expect(await h.impatient.createPod(createRequest())).toEqual({
      httpStatus: 0,
      podId: null,
      retryAfterSeconds: null,
      detail: 'timeout',
    });
    // The simulator answers late, after the client gave up: the create landed anyway.
    await h.waitForCall((call) => call.fault === 'delay' && call.status === 201);
    expect(await podsOnVolume()).toHaveLength(1);
  });
});
