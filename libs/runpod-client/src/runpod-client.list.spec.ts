import { LEVEL } from '@podwarden/testing';
import {
  API_ORIGIN,
  CONTROL_PLANE_HEADERS,
  FAST_TIMEOUTS,
  JSON_HEADERS,
  SLOWER_THAN_TIMEOUT_MS,
  mockRunPod,
  onlyCall,
  pod,
  type MockRunPod,
  fieldsOf,
} from './testing/mock-runpod-harness';

describe('RunPodClient.listPods', () => {
  let mock: MockRunPod;
  beforeEach(() => {
    mock = mockRunPod({ timeouts: FAST_TIMEOUTS });
  });
  afterEach(() => mock.finish());

  const answer = (status: number, body: unknown, headers: Record<string, string> = JSON_HEADERS) =>
    mock.api.intercept({ method: 'GET', path: '/v2/pods' }).reply(status, body as object, { headers });

  it('sends exactly GET {base}/pods with the bearer and no query string', async () => {
    answer(200, []);
    await mock.client.listPods();
    expect(onlyCall(mock)).toEqual({
      method: 'GET',
      url: `${API_ORIGIN}/v2/pods`,
      headers: CONTROL_PLANE_HEADERS,
      body: undefined,
    });
  });

  it('reduces each listed pod to what we use', async () => {
    answer(200, [
      pod({
        id: 'abc123',
        mounts: {
          network: [
            { volumeId: 'vol-1', path: '/workspace' },
            { volumeId: 'vol-2', path: '/data' },
          ],
        },
      }),
    ]);
    expect(await mock.client.listPods()).toEqual({
      kind: 'listed',
      pods: [
        {
          id: 'abc123',
          name: 'podwarden-qwen-20261130T101500Z',
          status: 'RUNNING',
          volumeIds: ['vol-1', 'vol-2'],
          costPerHr: 1.59,
          gpuId: 'NVIDIA A100 80GB PCIe',
          createdAt: '2026-11-30T10:15:00Z',
        },
      ],
    });
  });

  it('reads absent or mistyped optional fields as null / empty, never as defaults', async () => {
    answer(200, [
      { id: 'bare' },
      { id: 'odd', name: 7, status: null, costPerHr: '1.5', gpu: 'x', mounts: { network: 'x' } },
    ]);
    const empty = { name: null, status: null, volumeIds: [], costPerHr: null, gpuId: null, createdAt: null };
    expect(await mock.client.listPods()).toEqual({
      kind: 'listed',
      pods: [
        { id: 'bare', ...empty },
        { id: 'odd', ...empty },
      ],
    });
  });

  it('skips mounts without a usable volume id', async () => {
    answer(200, [
      pod({
        mounts: { network: [{ path: '/x' }, { volumeId: '' }, { volumeId: 3 }, null, { volumeId: 'v' }] },
      }),
    ]);
    const list = await mock.client.listPods();
    expect(list.kind === 'listed' && list.pods[0].volumeIds).toEqual(['v']);
  });

  it('tolerates the { pods: [...] } envelope', async () => {
    answer(200, { pods: [pod({ id: 'p1' }), pod({ id: 'p2' })] });
    const list = await mock.client.listPods();
    expect(list.kind === 'listed' && list.pods.map((p) => p.id)).toEqual(['p1', 'p2']);
  });

  it.each([
    ['a missing id', pod({ id: undefined })],
    ['a numeric id', pod({ id: 42 })],
    ['a blank id', pod({ id: '  ' })],
    ['a null entry', null],
    ['a string entry', 'x'],
  ])(
    'reads a list with %s as unreadable: an unidentifiable pod may be the billing one',
    async (_label, bad) => {
      answer(200, [pod({ id: 'first' }), bad, pod({ id: 'last' })]);
      const list = await mock.client.listPods();
      expect(list).toEqual({ kind: 'unreadable', reason: 'pod list has an entry without an id' });
    },
  );

  it('reads an empty array as an empty, readable list', async () => {
    answer(200, []);
    expect(await mock.client.listPods()).toEqual({ kind: 'listed', pods: [] });
  });

  it.each([
    ['an unparseable body', 'not json', 'unparseable pod list'],
    ['an object without pods', { items: [] }, 'pod list is not an array'],
    ['pods that is not an array', { pods: {} }, 'pod list is not an array'],
    ['a JSON string', '"pods"', 'pod list is not an array'],
    ['JSON null', 'null', 'pod list is not an array'],
  ])('is unreadable for a 2xx with %s', async (_case, body, reason) => {
    answer(200, body);
    expect(await mock.client.listPods()).toEqual({ kind: 'unreadable', reason });
  });

  it.each([401, 404, 500, 503])('is unreadable on http %i', async (status) => {
    answer(status, []);
    expect(await mock.client.listPods()).toEqual({ kind: 'unreadable', reason: `http ${status}` });
  });

  it('is unreadable on a transport error or a timeout', async () => {
    mock.api.intercept({ method: 'GET', path: '/v2/pods' }).replyWithError(new Error('ECONNRESET'));
    mock.api.intercept({ method: 'GET', path: '/v2/pods' }).reply(200, []).delay(SLOWER_THAN_TIMEOUT_MS);
    expect(await mock.client.listPods()).toEqual({
      kind: 'unreadable',
      reason: 'transport error: ECONNRESET',
    });
    expect(await mock.client.listPods()).toEqual({ kind: 'unreadable', reason: 'timeout' });
  });
});

describe('RunPodClient.lookupByVolume', () => {
  let mock: MockRunPod;
  beforeEach(() => {
    mock = mockRunPod();
  });
  afterEach(() => mock.finish());

  it('makes one list call and returns the lookup with the whole list', async () => {
    mock.api
      .intercept({ method: 'GET', path: '/v2/pods' })
      .reply(200, [
        pod({ id: 'stale', mounts: { network: [{ volumeId: 'vol-1' }] } }),
        pod({ id: 'other', mounts: { network: [{ volumeId: 'vol-2' }] } }),
        pod({ id: 'fresh', mounts: { network: [{ volumeId: 'vol-1' }] } }),
      ]);
    const { lookup, list } = await mock.client.lookupByVolume('vol-1');
    expect(mock.calls()).toHaveLength(1);
    expect(lookup).toEqual({ kind: 'found', podIds: ['stale', 'fresh'] });
    expect(list.kind === 'listed' && list.pods.map((p) => p.id)).toEqual(['stale', 'other', 'fresh']);
  });

  it('warns when more than one pod sits on the volume', async () => {
    mock.api.intercept({ method: 'GET', path: '/v2/pods' }).reply(200, [pod({ id: 'a' }), pod({ id: 'b' })]);
    await mock.client.lookupByVolume('vol-eu-ro-1');
    const warnings = mock.logs.find('more than one pod on the volume');
    expect(warnings.map((line) => line.level)).toEqual([LEVEL.warn]);
    expect(fieldsOf(warnings[0])).toEqual({ op: 'lookup', volumeId: 'vol-eu-ro-1', podIds: ['a', 'b'] });
  });

  it('is not-found only when the list was read and nothing matched', async () => {
    mock.api.intercept({ method: 'GET', path: '/v2/pods' }).reply(200, [pod({ id: 'a' })]);
    expect((await mock.client.lookupByVolume('vol-elsewhere')).lookup).toEqual({ kind: 'not-found' });
  });

  it('is unreadable when the list fails: a failed list is never "no pod"', async () => {
    mock.api.intercept({ method: 'GET', path: '/v2/pods' }).reply(500, 'oops');
    expect(await mock.client.lookupByVolume('vol-1')).toEqual({
      lookup: { kind: 'unreadable', reason: 'http 500' },
      list: { kind: 'unreadable', reason: 'http 500' },
    });
  });
});
