import type { PodActionResult, RunPodClient } from '@podwarden/runpod-client';
import {
  ContractHarness,
  CREATE_MARKS,
  createRequest,
  PAST_TIMEOUT_MS,
  START_MARKS,
  VOLUME_ID,
  type FaultRequest,
} from './support/contract-harness';

type Action = 'start' | 'stop' | 'terminate';

/** A pod the action applies to: start needs a stopped pod, stop and terminate a running one. */
const APPLICABLE_STATUS = { start: 'EXITED', stop: 'RUNNING', terminate: 'RUNNING' } as const;

function act(client: RunPodClient, action: Action, podId: string): Promise<PodActionResult> {
  switch (action) {
    case 'start':
      return client.startPod(podId);
    case 'stop':
      return client.stopPod(podId);
    case 'terminate':
      return client.terminatePod(podId);
  }
}

describe('contract: startPod / stopPod / terminatePod against the simulator', () => {
  let h: ContractHarness;

  beforeAll(async () => {
    h = await ContractHarness.start();
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  /** The pod's status on the wire now, or 'gone' once the API no longer knows it. */
  const wireStatus = async (podId: string): Promise<string> => {
    const answer = await h.wire(`/pods/${encodeURIComponent(podId)}`);
    return answer.status === 404 ? 'gone' : (answer.json as { status: string }).status;
  };

  it.each<[Action, string, unknown, number, string]>([
    ['stop', 'POST', { action: 'stop' }, 200, 'EXITED'],
    ['start', 'POST', { action: 'start' }, 200, 'STARTING'],
    ['terminate', 'DELETE', null, 204, 'gone'],
  ])(
    '%s is ok on 2xx, sent as exactly one %s with the documented body (none on DELETE)',
    async (action, method, body, httpStatus, after) => {
      const podId = await h.seedPod({ id: 'pod-acted-on', status: APPLICABLE_STATUS[action] });

      expect(await act(h.client, action, podId)).toEqual({ ok: true, httpStatus, detail: null });

      const path = action === 'terminate' ? '/pods/pod-acted-on' : '/pods/pod-acted-on/action';
      expect(await h.calls()).toEqual([
        expect.objectContaining({ method, path, query: {}, body, status: httpStatus, authorized: true }),
      ]);
      expect(await wireStatus(podId)).toBe(after);
    },
  );

  it('stop then start keeps the same pod id: one pod on the volume, Running again after the boot', async () => {
    const { podId } = await h.client.createPod(createRequest());
    if (podId === null) throw new Error('create gave no id');
    h.advance(CREATE_MARKS.serving);

    expect((await h.client.stopPod(podId)).ok).toBe(true);
    expect(await h.client.observePod(podId)).toMatchObject({ status: 'Exited' });
    expect((await h.client.startPod(podId)).ok).toBe(true);
    h.advance(START_MARKS.serving);

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
    expect((await h.client.lookupByVolume(VOLUME_ID)).lookup).toEqual({ kind: 'found', podIds: [podId] });
  });

  it('terminate removes the pod from the list and the pod reads as not-found', async () => {
    const keep = await h.seedPod({ id: 'pod-kept', status: 'RUNNING' });
    const gone = await h.seedPod({ id: 'pod-terminated', status: 'RUNNING' });

    expect((await h.client.terminatePod(gone)).ok).toBe(true);

    const { lookup, list } = await h.client.lookupByVolume(VOLUME_ID);
    expect(lookup).toEqual({ kind: 'found', podIds: [keep] });
    expect(list.kind === 'listed' && list.pods.map((pod) => pod.id)).toEqual([keep]);
    expect(await h.client.observePod(gone)).toEqual({ kind: 'not-found', podId: gone });
  });

  it.each<Action>(['start', 'stop', 'terminate'])(
    '%s on an unknown pod is not ok: 404 with the problem detail',
    async (action) => {
      expect(await act(h.client, action, 'no-such-pod')).toEqual({
        ok: false,
        httpStatus: 404,
        detail: 'pod not found or not accessible',
      });
    },
  );

  it.each<[string, Action, Parameters<ContractHarness['seedPod']>[0], RegExp]>([
    ['start on a running pod', 'start', { status: 'RUNNING' }, /start applies to EXITED or ERROR/],
    ['stop on a stopped pod', 'stop', { status: 'EXITED' }, /stop applies to a pod that is up/],
    [
      'terminate on a cluster pod',
      'terminate',
      { status: 'RUNNING', clusterId: 'cluster-1' },
      /belongs to cluster cluster-1/,
    ],
  ])('%s is not ok: 409 with the problem detail', async (_name, action, seed, detail) => {
    const podId = await h.seedPod(seed);
    expect(await act(h.client, action, podId)).toEqual({
      ok: false,
      httpStatus: 409,
      detail: expect.stringMatching(detail),
    });
  });

  it.each<[string, Action, Omit<FaultRequest, 'route' | 'podId'>, boolean, number, string]>([
    ['stop answered 500', 'stop', { kind: 'status', status: 500 }, false, 500, 'RUNNING'],
    ['stop answered 429', 'stop', { kind: 'status', status: 429, retryAfter: 3 }, false, 429, 'RUNNING'],
    ['start answered 503', 'start', { kind: 'status', status: 503 }, false, 503, 'EXITED'],
    ['stop answered unreadable (500)', 'stop', { kind: 'unreadable' }, false, 500, 'RUNNING'],
    ['stop answered bare-404 (an HTML page)', 'stop', { kind: 'bare-404' }, false, 404, 'RUNNING'],
    [
      'stop answered 502 after it took effect',
      'stop',
      { kind: 'after-effect', status: 502 },
      false,
      502,
      'EXITED',
    ],
    ['start answered 500 after it took effect', 'start', { kind: 'after-effect' }, false, 500, 'STARTING'],
    ['stop answered 2xx with a truncated body', 'stop', { kind: 'malformed' }, true, 200, 'EXITED'],
    ['stop answered 2xx without an id', 'stop', { kind: 'no-id' }, true, 200, 'EXITED'],
    ['terminate answered 503', 'terminate', { kind: 'status', status: 503 }, false, 503, 'RUNNING'],
    ['terminate answered unreadable (500)', 'terminate', { kind: 'unreadable' }, false, 500, 'RUNNING'],
    ['terminate answered bare-404 (an HTML page)', 'terminate', { kind: 'bare-404' }, false, 404, 'RUNNING'],
    [
      'terminate answered 500 after it took effect',
      'terminate',
      { kind: 'after-effect' },
      false,
      500,
      'gone',
    ],
    ['terminate answered 2xx with a truncated body', 'terminate', { kind: 'malformed' }, true, 200, 'gone'],
  ])(
    '%s: ok is exactly "2xx", the status is passed through, and the pod is as RunPod left it',
    async (_name, action, fault, ok, httpStatus, after) => {
      const podId = await h.seedPod({ status: APPLICABLE_STATUS[action] });
      await h.injectFault({ route: action === 'terminate' ? 'terminate' : 'action', podId, ...fault });

      expect(await act(h.client, action, podId)).toMatchObject({ ok, httpStatus });
      expect(await wireStatus(podId)).toBe(after);
    },
  );

  it.each<Action>(['start', 'stop', 'terminate'])(
    '%s delayed past the client timeout is not ok with httpStatus 0 (nothing answered)',
    async (action) => {
      const podId = await h.seedPod({ status: APPLICABLE_STATUS[action] });
      const route = action === 'terminate' ? 'terminate' : 'action';
      await h.injectFault({ route, podId, kind: 'delay', delayMs: PAST_TIMEOUT_MS });

      expect(await act(h.impatient, action, podId)).toEqual({ ok: false, httpStatus: 0, detail: 'timeout' });
      await h.waitForCall((call) => call.fault === 'delay');
    },
  );
});
