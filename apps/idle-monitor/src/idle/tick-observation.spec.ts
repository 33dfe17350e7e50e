import type { PodList, ProxyActivity } from '@podwarden/policies';
import { EMPTY_IDLE_RECORD, type IdleRecord } from '@podwarden/platform';
import { FakeRunPod, LEVEL, captureLogs, testConfig } from '@podwarden/testing';
import type { TickStatusEffects } from './tick-status-effects';
import { listedOf, observeTick, withProxyTraffic, type TickObservationDeps } from './tick-observation';

const CONFIG = testConfig({ REDIS_READ_TIMEOUT_MS: '20' });
const POD = CONFIG.pods[0];
const NOW = Date.parse('2026-12-01T12:00:00Z');
const TICK = { tickId: 't-1', scheduledAt: null };

/** The tick's reads on FakeRunPod; the proxy activity and the status publisher as the spec sets them. */
function setup() {
  const fake = new FakeRunPod();
  const logs = captureLogs();
  const published: unknown[][] = [];
  const proxy: { answer: () => Promise<ProxyActivity>; asked: unknown[][] } = {
    answer: () => Promise.resolve({ inFlight: 0, lastEndedAt: null }),
    asked: [],
  };
  const deps: TickObservationDeps = {
    client: fake,
    config: CONFIG,
    logger: logs.logger,
    now: () => NOW,
    status: {
      publish: (...args: unknown[]) => {
        published.push(args);
        return Promise.resolve();
      },
    } as unknown as TickStatusEffects,
    proxyActivity: {
      read: (...args: unknown[]) => {
        proxy.asked.push(args);
        return proxy.answer();
      },
    },
  };
  return { fake, logs, deps, published, proxy };
}

function record(fields: Partial<IdleRecord> = {}): IdleRecord {
  return { ...EMPTY_IDLE_RECORD, ...fields };
}

describe('observeTick', () => {
  it('folds each pod on the volume into its signal, the up pods, the never-ran and ERROR clocks and the verdict', async () => {
    const { fake, deps, published } = setup();
    fake.setPod('p1');
    fake.setPod('p2', { observation: 'Provisioning', listedStatus: 'CREATED' });
    fake.setPod('p3', { observation: 'Error', listedStatus: 'ERROR' });
    fake.setPod('other', { volumeId: 'vol-2' });
    const list = await fake.listPods();
    const seen = await observeTick(deps, POD, list, record(), TICK);
    expect(seen.perPod).toEqual([
      { podId: 'p1', signal: 'UnreachableButRunning' },
      { podId: 'p2', signal: 'Booting' },
      { podId: 'p3', signal: 'Unknown' },
    ]);
    expect(seen.podsOnVolume).toEqual(['p1', 'p2', 'p3']);
    expect(seen.seenUp).toEqual(['p1', 'p2', 'p3']);
    expect(seen.neverRanSince).toEqual({ p2: NOW });
    expect(seen.errorSince).toEqual({ p3: { since: NOW, stoppedAt: null } });
    expect(seen.aggregate).toEqual({ signal: 'UnreachableButRunning', podId: 'p1' });
    // Without a ticket from before the list, the snapshot is published under none.
    expect(published).toEqual([
      [POD, null, { kind: 'found', podIds: ['p1', 'p2', 'p3'] }, expect.any(Array)],
    ]);
  });

  it("publishes under the pod's ticket taken before the list", async () => {
    const { fake, deps, published } = setup();
    fake.setPod('p1');
    const ticket = { generation: 3, observedAt: NOW - 5 };
    await observeTick(deps, POD, await fake.listPods(), record(), {
      ...TICK,
      tickets: new Map([[POD.name, ticket]]),
    });
    expect(published.map((call) => call[1])).toEqual([ticket]);
  });

  it('keeps the clocks already running (a clock is started once, not every tick)', async () => {
    const { fake, deps } = setup();
    fake.setPod('p2', { observation: 'Provisioning', listedStatus: 'CREATED' });
    fake.setPod('p3', { observation: 'Error', listedStatus: 'ERROR' });
    const earlier = {
      neverRanSince: { p2: NOW - 60_000 },
      errorSince: { p3: { since: NOW - 90_000, stoppedAt: null } },
      seenUp: ['p2'],
    };
    const seen = await observeTick(deps, POD, await fake.listPods(), record(earlier), TICK);
    expect(seen.neverRanSince).toEqual(earlier.neverRanSince);
    expect(seen.errorSince).toEqual(earlier.errorSince);
  });

  it('an unreadable list keeps everything the record had: up pods, clocks and baselines', async () => {
    const { fake, deps } = setup();
    fake.setPod('p1').listFails();
    const before = record({
      baselines: { p1: { requestsTotal: 4 } } as unknown as IdleRecord['baselines'],
      seenUp: ['p1'],
      neverRanSince: { p1: NOW - 1 },
      errorSince: { p1: { since: NOW - 2, stoppedAt: null } },
    });
    const seen = await observeTick(deps, POD, await fake.listPods(), before, TICK);
    expect(seen.baselines).toBe(before.baselines);
    expect(seen.seenUp).toEqual(['p1']);
    expect(seen.neverRanSince).toEqual({ p1: NOW - 1 });
    expect(seen.errorSince).toEqual({ p1: { since: NOW - 2, stoppedAt: null } });
    expect(seen.podsOnVolume).toEqual([]);
    expect(seen.aggregate).toEqual({ signal: 'Unknown', podId: null });
  });

  it('nothing on the volume: no pods, no clocks, no up pods, baselines dropped, NotRunning', async () => {
    const { fake, deps } = setup();
    fake.setPod('other', { volumeId: 'vol-2' });
    const before = record({
      baselines: { gone: { requestsTotal: 4 } } as unknown as IdleRecord['baselines'],
      seenUp: ['gone'],
      neverRanSince: { gone: NOW - 1 },
    });
    const seen = await observeTick(deps, POD, await fake.listPods(), before, TICK);
    expect(seen).toEqual(
      expect.objectContaining({
        perPod: [],
        seenUp: [],
        neverRanSince: {},
        errorSince: {},
        podsOnVolume: [],
        baselines: {},
        aggregate: { signal: 'NotRunning', podId: null },
      }),
    );
  });

  it('an unreadable list with no pods ever seen up (a record from before seenUp) keeps none up', async () => {
    const { fake, deps } = setup();
    fake.setPod('p1').listFails();
    const before = record();
    expect(before).not.toHaveProperty('seenUp');
    const seen = await observeTick(deps, POD, await fake.listPods(), before, TICK);
    expect(seen.seenUp).toEqual([]);
  });

  it('a pod that serves /metrics is not in ERROR, whatever the list says: no ERROR clock starts, an old one is dropped', async () => {
    const { fake, deps } = setup();
    fake.setPod('p1', {
      listedStatus: 'ERROR',
      observation: 'unreadable',
      metrics: { active: 0, completed: 0 },
    });
    const list = await fake.listPods();
    const fresh = await observeTick(deps, POD, list, record(), TICK);
    // Served: read from /metrics (a first scrape, no baseline yet, reads Busy), never the control plane.
    expect(fresh.perPod).toEqual([{ podId: 'p1', signal: 'Busy' }]);
    expect(fresh.errorSince).toEqual({});
    const running = record({ errorSince: { p1: { since: NOW - 60_000, stoppedAt: null } } });
    await expect(observeTick(deps, POD, list, running, TICK)).resolves.toEqual(
      expect.objectContaining({ errorSince: {} }),
    );
    // The same pod not serving, unread by the control plane: the list's ERROR is the evidence.
    fake.setPod('p1', { listedStatus: 'ERROR', observation: 'unreadable', metrics: null });
    const unserved = await observeTick(deps, POD, await fake.listPods(), record(), TICK);
    expect(unserved.errorSince).toEqual({ p1: { since: NOW, stoppedAt: null } });
  });

  it('with no status publisher it reads the same', async () => {
    const { fake, deps } = setup();
    fake.setPod('p1');
    const seen = await observeTick(
      { ...deps, status: { publish: () => Promise.resolve() } as unknown as TickStatusEffects },
      POD,
      await fake.listPods(),
      record(),
      TICK,
    );
    expect(seen.aggregate.signal).toBe('UnreachableButRunning');
  });
});

describe('withProxyTraffic', () => {
  const ready = record({ state: { ...EMPTY_IDLE_RECORD.state, phase: 'Ready', lastTickAt: NOW - 60_000 } });

  async function idleReading(deps: TickObservationDeps, fake: FakeRunPod) {
    fake.setPod('p1', { metrics: null });
    return observeTick(deps, POD, await fake.listPods(), ready, TICK);
  }

  it('a request in flight through a proxy turns a Ready pod that reads idle Busy, and says so at Debug', async () => {
    const { fake, deps, proxy, logs } = setup();
    const seen = await idleReading(deps, fake);
    proxy.answer = () => Promise.resolve({ inFlight: 2, lastEndedAt: null });
    logs.clear();
    const after = await withProxyTraffic(deps, POD, ready, seen);
    expect(proxy.asked).toEqual([[POD.name, NOW]]);
    expect(after).toEqual({
      ...seen,
      aggregate: { signal: 'Busy', podId: 'p1' },
      // What the rhythm keeper reads: the proxies' record and what the scrape alone said.
      proxy: { inFlight: 2, lastEndedAt: null },
      scraped: 'UnreachableButRunning',
    });
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: LEVEL.debug,
        pod: POD.name,
        proxy: { inFlight: 2, lastEndedAt: null },
        scraped: 'UnreachableButRunning',
        msg: 'proxy traffic reads Busy',
      }),
    ]);
  });

  it('no traffic since the last tick changes nothing: the same reading, no log', async () => {
    const { fake, deps, proxy, logs } = setup();
    const seen = await idleReading(deps, fake);
    proxy.answer = () => Promise.resolve({ inFlight: 0, lastEndedAt: NOW - 120_000 });
    logs.clear();
    await expect(withProxyTraffic(deps, POD, ready, seen)).resolves.toEqual({
      ...seen,
      proxy: { inFlight: 0, lastEndedAt: NOW - 120_000 },
      scraped: 'UnreachableButRunning',
    });
    expect(logs.lines).toEqual([]);
  });

  it('an unreadable proxy record is one Warning and reads Busy (it proves no idleness)', async () => {
    const { fake, deps, proxy, logs } = setup();
    const seen = await idleReading(deps, fake);
    proxy.answer = () => Promise.reject(new Error('NOSCRIPT'));
    logs.clear();
    const after = await withProxyTraffic(deps, POD, ready, seen);
    expect(after.aggregate.signal).toBe('Busy');
    expect(logs.lines.filter((l) => l.level === LEVEL.warn)).toEqual([
      expect.objectContaining({
        pod: POD.name,
        err: 'NOSCRIPT',
        msg: 'proxy activity unreadable; reading it as Busy',
      }),
    ]);
  });

  it('a proxy record that does not answer in time is cut off at the Redis read timeout', async () => {
    const { fake, deps, proxy, logs } = setup();
    const seen = await idleReading(deps, fake);
    proxy.answer = () => new Promise<never>(() => undefined);
    logs.clear();
    const after = await withProxyTraffic(deps, POD, ready, seen);
    expect(after.aggregate.signal).toBe('Busy');
    expect(logs.lines.filter((l) => l.level === LEVEL.warn).map((l) => l.err)).toEqual([
      'proxy activity read timed out after 20 ms',
    ]);
  });
});

describe('listedOf', () => {
  it('answers the listed pods, or none when the list was unreadable', async () => {
    const fake = new FakeRunPod().setPod('p1');
    const list = await fake.listPods();
    expect(listedOf(list).map((p) => p.id)).toEqual(['p1']);
    const unreadable: PodList = { kind: 'unreadable', reason: 'HTTP 500' };
    expect(listedOf(unreadable)).toEqual([]);
  });
});
