import { StatusSnapshotStore, type StatusSnapshot } from '@podwarden/platform';
import { OUR_VOLUME } from '@podwarden/testing';
import { OPERATOR, deferred, startGateway, until, type GatewayHarness } from '../testing/gateway-harness';

function running(podId: string, observedAt: number): StatusSnapshot {
  return {
    volume: {
      kind: 'found',
      pods: [{ podId, observation: { kind: 'found', podId, status: 'Running', gpuCount: 1 } }],
    },
    observedAt,
  };
}

describe('GET from the shared status snapshot', () => {
  let gw: GatewayHarness;
  let store: StatusSnapshotStore;

  beforeAll(async () => {
    // The defaults: fresh for 2 s, then shown while refreshing for one refresh budget (30 s).
    gw = await startGateway('snapshots');
    store = gw.app.get(StatusSnapshotStore);
  });
  afterAll(async () => {
    await gw.close();
  });
  beforeEach(() => gw.resetRunPod());

  async function plant(snapshot: StatusSnapshot): Promise<void> {
    const { generation } = await store.read('qwen');
    expect(await store.write('qwen', generation, snapshot)).toBe(true);
  }

  it('a fresh snapshot is served without any RunPod call, with its observation time', async () => {
    const observedAt = Date.now();
    await plant(running('planted', observedAt));
    const answer = await gw.request('GET', '/api/pods/qwen');
    expect(answer.body).toMatchObject({
      podId: 'planted',
      lookup: 'FOUND',
      observedAt: new Date(observedAt).toISOString(),
    });
    expect(gw.fake.calls).toEqual([]);
  });

  it('a stale snapshot is served at once while one background refresh replaces it', async () => {
    gw.fake.setPod('new', { volumeId: OUR_VOLUME });
    await plant(running('old', Date.now() - 5_000));
    const held = deferred();
    gw.fake.holdNextList = held.promise;
    try {
      // Both answered from the old snapshot while the one refresh's list is held.
      const answers = await Promise.all([
        gw.request('GET', '/api/pods/qwen'),
        gw.request('GET', '/api/pods'),
      ]);
      expect(answers[0].body.podId).toBe('old');
      expect((answers[1].body.pods as Array<Record<string, unknown>>)[0].podId).toBe('old');
      held.release();
      await until(() => gw.fake.count('observe') === 1, 'the background refresh observing');
      for (;;) {
        const { snapshot } = await store.read('qwen');
        if (snapshot?.volume.kind === 'found' && snapshot.volume.pods[0].podId === 'new') break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect((await gw.request('GET', '/api/pods/qwen')).body.podId).toBe('new');
      expect(gw.fake.calls).toEqual(['list', 'observe new']);
    } finally {
      held.release();
    }
  });

  it('a reader that decided on a stale read but finds it refreshed under the lock reads nothing', async () => {
    gw.fake.setPod('new', { volumeId: OUR_VOLUME });
    await plant(running('fresh', Date.now()));
    // This reader saw the snapshot before another replica refreshed it.
    const reads = jest
      .spyOn(store, 'read')
      .mockResolvedValueOnce({ snapshot: running('stale', Date.now() - 5_000), generation: 0 });
    try {
      const answer = await gw.request('GET', '/api/pods/qwen');
      expect(answer.body.podId).toBe('stale');
      await until(() => reads.mock.calls.length >= 2, 'the re-read under the refresh lock');
      await reads.mock.results[1].value;
      while (await store.isLocked('qwen')) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(gw.fake.calls).toEqual([]);
    } finally {
      reads.mockRestore();
    }
  });

  it('a snapshot too old to show (nobody polled) is not shown: the GET waits for a new read', async () => {
    gw.fake.setPod('new', { volumeId: OUR_VOLUME });
    await plant(running('ancient', Date.now() - 3_600_000));
    const answer = await gw.request('GET', '/api/pods/qwen');
    expect(answer.body.podId).toBe('new');
    expect(gw.fake.calls).toEqual(['list', 'observe new']);
  });

  it('while another replica holds the refresh lock, a GET waits for its snapshot and reads nothing itself', async () => {
    expect(await store.tryLock('qwen', 'other-replica', 60_000)).toBe(true);
    try {
      const pending = gw.request('GET', '/api/pods/qwen');
      // The other replica publishes what it read.
      const { generation } = await store.read('qwen');
      await store.write('qwen', generation, running('theirs', Date.now()));
      expect((await pending).body).toMatchObject({ podId: 'theirs', lookup: 'FOUND' });
      expect(gw.fake.calls).toEqual([]);
    } finally {
      await store.unlock('qwen', 'other-replica');
    }
  });

  it('an unreadable refresh is shown as UNREADABLE (never NOT_FOUND) and shared like any snapshot', async () => {
    gw.fake.listFails('http 502');
    const first = await gw.request('GET', '/api/pods/qwen');
    const second = await gw.request('GET', '/api/pods/qwen');
    expect([first.body.lookup, second.body.lookup]).toEqual(['UNREADABLE', 'UNREADABLE']);
    expect(gw.fake.count('list')).toBe(1);
  });

  it.each([
    ['stop', 'POST', '/api/pods/qwen/stop'],
    ['keep-alive', 'POST', '/api/pods/qwen/keepalive'],
  ])('after a %s the next GET reads RunPod again', async (_name, method, path) => {
    gw.fake.setPod('p1', { volumeId: OUR_VOLUME });
    expect((await gw.request('GET', '/api/pods/qwen')).body.status).toBe('RUNNING');
    await gw.request(method, path, OPERATOR, path.endsWith('keepalive') ? { minutes: 5 } : undefined);
    gw.fake.setPod('p1', { volumeId: OUR_VOLUME, listedStatus: 'EXITED', observation: 'Exited' });
    expect((await gw.request('GET', '/api/pods/qwen')).body.status).toBe('EXITED');
    expect(gw.fake.count('list')).toBe(method === 'POST' && path.endsWith('stop') ? 3 : 2);
  });
});

describe('GET when the refresh lock holder never publishes', () => {
  let gw: GatewayHarness;
  let store: StatusSnapshotStore;

  beforeAll(async () => {
    // A small refresh budget (two connect+timeout budgets = 400 ms) keeps the fail-closed wait short.
    gw = await startGateway('snapshots-dead-holder', {
      env: { RUNPOD_CONNECT_TIMEOUT_MS: '100', RUNPOD_TIMEOUT_MS: '100' },
    });
    store = gw.app.get(StatusSnapshotStore);
  });
  afterAll(async () => {
    await gw.close();
  });

  it('fails closed when the lock holder never publishes: UNREADABLE, never "no pod"', async () => {
    expect(await store.tryLock('qwen', 'dead-replica', 60_000)).toBe(true);
    try {
      const answer = await gw.request('GET', '/api/pods/qwen');
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ lookup: 'UNREADABLE', status: 'UNKNOWN', podsOnVolume: 0 });
      expect(gw.fake.calls).toEqual([]);
    } finally {
      await store.unlock('qwen', 'dead-replica');
    }
  });
});

describe('GET when the snapshot cannot be read from Redis', () => {
  let gw: GatewayHarness;
  const failing = () => Promise.reject(new Error('ECONNREFUSED scripted'));

  beforeAll(async () => {
    gw = await startGateway('snapshots-redis-down', {
      overrides: [
        {
          token: StatusSnapshotStore,
          value: { read: failing, write: failing, invalidate: failing, tryLock: failing, unlock: failing },
        },
      ],
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('reads RunPod itself and answers 200 with the pod, logging a warning', async () => {
    gw.fake.setPod('p1', { volumeId: OUR_VOLUME });
    const answer = await gw.request('GET', '/api/pods/qwen');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ podId: 'p1', lookup: 'FOUND', observedAt: expect.any(String) });
    expect(gw.logs.messages('warn')).toContain(
      'pod status: snapshot unreadable in Redis; reading RunPod directly',
    );
  });
});
