import { ActionLog } from '@podwarden/platform';
import { listedPod } from '../testing/fake-runpod-client';
import { OPERATOR, leakedSecrets, startGateway, type GatewayHarness } from '../testing/gateway-harness';

const running = (podId: string) => ({
  kind: 'found' as const,
  podId,
  status: 'Running' as const,
  gpuCount: 1,
});

describe('POST /api/pods/{name}/stop', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway('stop');
  });
  afterAll(async () => {
    await gw.close();
  });
  beforeEach(() => gw.fake.reset());

  const stopCalls = () =>
    gw.fake.calls.filter((c) => c.method === 'stopPod').map((c) => ('podId' in c ? c.podId : ''));

  it('stops every pod on the volume (a stale pod and its replacement may both bill)', async () => {
    gw.fake.script([
      { listed: listedPod('stale', 'vol-qwen', 'RUNNING'), observation: running('stale') },
      { listed: listedPod('fresh', 'vol-qwen', 'RUNNING'), observation: running('fresh') },
      { listed: listedPod('elsewhere', 'vol-other', 'RUNNING'), observation: running('elsewhere') },
    ]);
    const answer = await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      name: 'qwen',
      ok: true,
      pods: [
        { podId: 'stale', ok: true },
        { podId: 'fresh', ok: true },
      ],
    });
    expect(stopCalls()).toEqual(['stale', 'fresh']);
  });

  it('a pod already EXITED is reported ok without a call', async () => {
    gw.fake.script([
      { listed: listedPod('down', 'vol-qwen', 'EXITED'), observation: running('down') },
      { listed: listedPod('up', 'vol-qwen', 'RUNNING'), observation: running('up') },
    ]);
    const answer = await gw.request('POST', '/api/pods/QWEN/stop', OPERATOR);
    expect(answer.body).toEqual({
      name: 'qwen',
      ok: true,
      pods: [
        { podId: 'down', ok: true },
        { podId: 'up', ok: true },
      ],
    });
    expect(stopCalls()).toEqual(['up']);
  });

  it('a refused stop is still 200, with ok false for that pod and overall', async () => {
    gw.fake.script([
      { listed: listedPod('a', 'vol-qwen', 'RUNNING'), observation: running('a') },
      { listed: listedPod('b', 'vol-qwen', 'RUNNING'), observation: running('b') },
    ]);
    gw.fake.stopResults.set('b', { ok: false, httpStatus: 500, detail: 'internal error' });
    const answer = await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      name: 'qwen',
      ok: false,
      pods: [
        { podId: 'a', ok: true },
        { podId: 'b', ok: false },
      ],
    });
  });

  it('records every stop it issued in the action log with trigger manual', async () => {
    gw.fake.script([{ listed: listedPod('rec', 'vol-qwen', 'RUNNING'), observation: running('rec') }]);
    await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
    const [newest] = await gw.app.get(ActionLog).recent('qwen', 1);
    expect(newest).toMatchObject({ action: 'Stop', podId: 'rec', trigger: 'manual', ok: true });
  });

  it('an unreadable volume lookup is 503 and stops nothing', async () => {
    gw.fake.list = { kind: 'unreadable', reason: 'http 502' };
    const answer = await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
    expect(answer.status).toBe(503);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ status: 503, title: 'Volume lookup unreadable' });
    expect(stopCalls()).toEqual([]);
  });

  it('no pod on the volume is a 404 problem', async () => {
    gw.fake.script([{ listed: listedPod('x', 'vol-other', 'RUNNING'), observation: running('x') }]);
    const answer = await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ status: 404, title: 'No pod on the volume' });
    expect(stopCalls()).toEqual([]);
  });

  it('a stop makes the next GET read afresh instead of joining a read that began before it', async () => {
    gw.fake.script([{ listed: listedPod('g', 'vol-qwen', 'RUNNING'), observation: running('g') }]);
    let releaseFirstList: () => void = () => undefined;
    gw.fake.holdNextList = new Promise<void>((resolve) => {
      releaseFirstList = resolve;
    });
    const before = gw.request('GET', '/api/pods/qwen');
    while (gw.fake.count('listPods') < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await gw.request('POST', '/api/pods/qwen/stop', OPERATOR)).status).toBe(200);
    const after = await gw.request('GET', '/api/pods/qwen');
    expect(after.status).toBe(200);
    // One list for the held GET, one for the stop, one for the GET after the stop.
    expect(gw.fake.count('listPods')).toBe(3);
    releaseFirstList();
    expect((await before).status).toBe(200);
  });

  it('never leaks a secret in a response body or a log line', () => {
    expect(leakedSecrets(gw)).toEqual([]);
  });
});

describe('POST …/stop when unconfigured', () => {
  it('is 503 with no RunPod call', async () => {
    const gw = await startGateway('stop-unconfigured', { env: { RUNPOD_VOLUME_ID: '' } });
    try {
      const answer = await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ status: 503, title: 'Pod not configured' });
      expect(gw.fake.calls).toEqual([]);
    } finally {
      await gw.close();
    }
  });
});
