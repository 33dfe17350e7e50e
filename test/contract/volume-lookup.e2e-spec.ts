import {
  ContractHarness,
  OTHER_VOLUME_ID,
  PAST_TIMEOUT_MS,
  VOLUME_ID,
  type FaultRequest,
  type PodSeed,
} from './support/contract-harness';
import { LEVEL } from '@podwarden/testing';

/** Four pods on our volume (two stale), one on another volume, one with none, created a minute apart. */
const POD_SEEDS: readonly PodSeed[] = [
  { id: 'pod-a-exited', status: 'EXITED', volumeId: VOLUME_ID, createdAt: '2026-11-30T09:00:00Z' },
  { id: 'pod-b-running', status: 'RUNNING', volumeId: VOLUME_ID, createdAt: '2026-11-30T09:01:00Z' },
  { id: 'pod-x-other', status: 'RUNNING', volumeId: OTHER_VOLUME_ID, createdAt: '2026-11-30T09:01:30Z' },
  { id: 'pod-c-exited', status: 'EXITED', volumeId: VOLUME_ID, createdAt: '2026-11-30T09:02:00Z' },
  { id: 'pod-d-running', status: 'RUNNING', volumeId: VOLUME_ID, createdAt: '2026-11-30T09:03:00Z' },
  { id: 'pod-y-novolume', status: 'RUNNING', volumeId: null, createdAt: '2026-11-30T09:04:00Z' },
];
/** A seed whose shuffle differs from creation order, so the shuffled row is not the created row again. */
const SHUFFLE_SEED = 7;

describe('contract: listPods / lookupByVolume against the simulator', () => {
  let h: ContractHarness;

  beforeAll(async () => {
    h = await ContractHarness.start();
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  /** The ids in the order the simulator lists them right after a reset to `scenario`. */
  const wireOrderAfterReset = async (scenario: Record<string, unknown>): Promise<string[]> => {
    await h.reset(scenario);
    const listed = (await h.wire('/pods')).json as { id: string }[];
    return listed.map((pod) => pod.id);
  };

  it.each<[string, string[] | null]>([
    ['created', ['pod-a-exited', 'pod-b-running', 'pod-c-exited', 'pod-d-running']],
    ['reverse', ['pod-d-running', 'pod-c-exited', 'pod-b-running', 'pod-a-exited']],
    ['stale-first', ['pod-a-exited', 'pod-c-exited', 'pod-b-running', 'pod-d-running']],
    ['shuffled', null],
  ])(
    'list order %s: every pod on the volume is found, each once, in the order listed',
    async (listOrder, expected) => {
      const scenario = { pods: POD_SEEDS, listOrder, seed: SHUFFLE_SEED };
      // The list order is reseeded on reset, so a second reset lists the same order again.
      const wireOrder = await wireOrderAfterReset(scenario);
      await h.reset(scenario);

      const { lookup, list } = await h.client.lookupByVolume(VOLUME_ID);

      const onVolume = wireOrder.filter((id) => POD_SEEDS.find((p) => p.id === id)?.volumeId === VOLUME_ID);
      expect(lookup).toEqual({ kind: 'found', podIds: onVolume });
      if (expected !== null) expect(onVolume).toEqual(expected);
      else expect(onVolume).not.toEqual(['pod-a-exited', 'pod-b-running', 'pod-c-exited', 'pod-d-running']);
      expect(list.kind === 'listed' && list.pods.map((pod) => pod.id)).toEqual(wireOrder);
    },
  );

  it('asks GET /pods once with no query and no body, and lists every pod with its volumes, GPU, price and status', async () => {
    await h.reset({ pods: POD_SEEDS });
    const { list } = await h.client.lookupByVolume(VOLUME_ID);
    expect(await h.calls()).toEqual([
      expect.objectContaining({ method: 'GET', path: '/pods', query: {}, body: null, status: 200 }),
    ]);
    expect(list.kind === 'listed' && list.pods[0]).toEqual({
      id: 'pod-a-exited',
      name: 'seeded-exited',
      status: 'EXITED',
      volumeIds: [VOLUME_ID],
      costPerHr: 0.49,
      gpuId: 'NVIDIA RTX A6000',
      createdAt: '2026-11-30T09:00:00Z',
    });
    expect(list.kind === 'listed' && list.pods.find((pod) => pod.id === 'pod-y-novolume')?.volumeIds).toEqual(
      [],
    );
  });

  it('more than one pod on the volume is logged as a warning naming them all', async () => {
    await h.reset({ pods: POD_SEEDS });
    await h.client.lookupByVolume(VOLUME_ID);
    expect(h.logs.lines).toContainEqual(
      expect.objectContaining({
        level: LEVEL.warn,
        volumeId: VOLUME_ID,
        podIds: ['pod-a-exited', 'pod-b-running', 'pod-c-exited', 'pod-d-running'],
      }),
    );
  });

  it('no pod mounting the volume is not-found, the only affirmative absence', async () => {
    await h.reset({ pods: POD_SEEDS.filter((pod) => pod.volumeId !== VOLUME_ID) });
    const { lookup, list } = await h.client.lookupByVolume(VOLUME_ID);
    expect(lookup).toEqual({ kind: 'not-found' });
    expect(list.kind === 'listed' && list.pods.map((pod) => pod.id)).toEqual([
      'pod-x-other',
      'pod-y-novolume',
    ]);
  });

  it('an empty account is not-found', async () => {
    expect((await h.client.lookupByVolume(VOLUME_ID)).lookup).toEqual({ kind: 'not-found' });
  });

  it('the object list shape { pods: [...] } is parsed like the array', async () => {
    await h.reset({ pods: POD_SEEDS, wire: { listShape: 'object' } });
    expect(Array.isArray((await h.wire('/pods')).json)).toBe(false);
    expect((await h.client.lookupByVolume(VOLUME_ID)).lookup).toEqual({
      kind: 'found',
      podIds: ['pod-a-exited', 'pod-b-running', 'pod-c-exited', 'pod-d-running'],
    });
  });

  it.each<[string, FaultRequest, string]>([
    ['unreadable (500)', { route: 'list', kind: 'unreadable' }, 'http 500'],
    ['status 503', { route: 'list', kind: 'status', status: 503 }, 'http 503'],
    ['status 403', { route: 'list', kind: 'status', status: 403 }, 'http 403'],
    ['bare-404 (HTML page)', { route: 'list', kind: 'bare-404' }, 'http 404'],
    ['malformed (2xx, truncated JSON)', { route: 'list', kind: 'malformed' }, 'unparseable pod list'],
  ])(
    'a list answered with %s is unreadable, never not-found (the list and the lookup both)',
    async (_name, fault, reason) => {
      // No pod on the volume: a client that read a failed list as empty would say not-found here.
      await h.injectFault(fault);
      const { lookup, list } = await h.client.lookupByVolume(VOLUME_ID);
      expect(lookup).toEqual({ kind: 'unreadable', reason });
      expect(list).toEqual({ kind: 'unreadable', reason });
    },
  );

  it('a list delayed past the client timeout is unreadable, never not-found', async () => {
    await h.injectFault({ route: 'list', kind: 'delay', delayMs: PAST_TIMEOUT_MS });
    const { lookup } = await h.impatient.lookupByVolume(VOLUME_ID);
    expect(lookup).toEqual({ kind: 'unreadable', reason: 'timeout' });
    await h.waitForCall((call) => call.fault === 'delay');
  });

  // A pod without an id may be the one on our volume: the list is unreadable, never "no pod".
  it('a listed pod on our volume without an id is never read as no pod (unreadable, not not-found)', async () => {
    await h.reset({ pods: POD_SEEDS.filter((pod) => pod.id === 'pod-b-running') });
    await h.injectFault({ route: 'list', kind: 'no-id' });
    const { lookup } = await h.client.lookupByVolume(VOLUME_ID);
    expect(lookup.kind).toBe('unreadable');
  });
});
