import type { RunPodClient } from '@podwarden/runpod-client';
import { ContractHarness, createRequest, POD_PORT, VOLUME_ID } from './support/contract-harness';

const WRONG_KEY = 'rpa_WRONG_0000000000000000_not-this-account';
const POD_ID = 'pod-live';

/** Every client method, named, with the arguments a wake or an idle tick would pass. */
const CALLS: readonly [string, (client: RunPodClient) => Promise<unknown>][] = [
  ['getCatalog', (client) => client.getCatalog()],
  ['observePod', (client) => client.observePod(POD_ID)],
  ['listPods', (client) => client.listPods()],
  ['lookupByVolume', (client) => client.lookupByVolume(VOLUME_ID)],
  ['createPod', (client) => client.createPod(createRequest())],
  ['startPod', (client) => client.startPod(POD_ID)],
  ['stopPod', (client) => client.stopPod(POD_ID)],
  ['terminatePod', (client) => client.terminatePod(POD_ID)],
  ['getActivity', (client) => client.getActivity(POD_ID, POD_PORT)],
];

const UNCONFIGURED_SHAPE: Record<string, unknown> = {
  getCatalog: [],
  observePod: { kind: 'unreadable', podId: POD_ID, reason: 'unconfigured' },
  listPods: { kind: 'unreadable', reason: 'unconfigured' },
  lookupByVolume: {
    lookup: { kind: 'unreadable', reason: 'unconfigured' },
    list: { kind: 'unreadable', reason: 'unconfigured' },
  },
  createPod: { httpStatus: 0, podId: null, retryAfterSeconds: null, detail: 'unconfigured' },
  startPod: { ok: false, httpStatus: 0, detail: 'unconfigured' },
  stopPod: { ok: false, httpStatus: 0, detail: 'unconfigured' },
  terminatePod: { ok: false, httpStatus: 0, detail: 'unconfigured' },
  getActivity: null,
};

const REFUSED = 'missing or invalid API key';
const WRONG_KEY_SHAPE: Record<string, unknown> = {
  getCatalog: [],
  observePod: { kind: 'unreadable', podId: POD_ID, reason: 'http 401' },
  listPods: { kind: 'unreadable', reason: 'http 401' },
  lookupByVolume: {
    lookup: { kind: 'unreadable', reason: 'http 401' },
    list: { kind: 'unreadable', reason: 'http 401' },
  },
  createPod: { httpStatus: 401, podId: null, retryAfterSeconds: null, detail: REFUSED },
  startPod: { ok: false, httpStatus: 401, detail: REFUSED },
  stopPod: { ok: false, httpStatus: 401, detail: REFUSED },
  terminatePod: { ok: false, httpStatus: 401, detail: REFUSED },
};

describe('contract: an unconfigured client and a wrong key against the simulator', () => {
  let h: ContractHarness;
  let unconfigured: RunPodClient;
  let blankKey: RunPodClient;
  let wrongKey: RunPodClient;

  beforeAll(async () => {
    h = await ContractHarness.start();
    unconfigured = h.newClient({ apiKey: null });
    blankKey = h.newClient({ apiKey: '   ' });
    wrongKey = h.newClient({ apiKey: WRONG_KEY });
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.reset();
    // A live pod, so a call that did reach the simulator would find something to read or change.
    await h.seedPod({ id: POD_ID, status: 'RUNNING' });
  });

  it.each(CALLS)(
    'unconfigured (no API key): %s sends no request and returns the unconfigured shape',
    async (name, call) => {
      expect(unconfigured.isConfigured).toBe(false);
      expect(await call(unconfigured)).toEqual(UNCONFIGURED_SHAPE[name]);
      expect(await h.calls()).toEqual([]);
      expect(await h.scrapes()).toEqual({});
    },
  );

  it('a blank API key is unconfigured too: no method sends a request', async () => {
    expect(blankKey.isConfigured).toBe(false);
    for (const [name, call] of CALLS) expect(await call(blankKey)).toEqual(UNCONFIGURED_SHAPE[name]);
    expect(await h.calls()).toEqual([]);
    expect(await h.scrapes()).toEqual({});
  });

  it.each(CALLS.filter(([name]) => name !== 'getActivity'))(
    'wrong key: %s is refused with 401 and reads as unreadable / [] / status 401 / not ok',
    async (name, call) => {
      expect(await call(wrongKey)).toEqual(WRONG_KEY_SHAPE[name]);
      const calls = await h.calls();
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ status: 401, authorized: false, bearerPresent: true });
      // Nothing was created, started, stopped or terminated.
      expect(
        ((await h.wire('/pods')).json as { id: string; status: string }[]).map((p) => [p.id, p.status]),
      ).toEqual([[POD_ID, 'RUNNING']]);
    },
  );

  it('wrong key: the metrics scrape still reads, because the pod proxy never takes the key', async () => {
    expect(await wrongKey.getActivity(POD_ID, POD_PORT)).toEqual({ active: 0, completed: 0 });
    expect((await h.scrapes())[POD_ID]).toMatchObject({ metrics: 1, withAuthorization: 0 });
  });
});
