import { ActionLog, PendingStopStore } from '@podwarden/platform';
import { OUR_VOLUME } from '@podwarden/testing';
import { OPERATOR, deferred, startGateway, until, type GatewayHarness } from '../testing/gateway-harness';
import { leakedSecrets } from '../testing/secret-scan';

describe('POST /api/pods/{name}/stop', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway('stop');
  });
  afterAll(async () => {
    await gw.close();
  });
  beforeEach(() => gw.resetRunPod());

  /** Stops of earlier cases are still followed in Redis: start from none. */
  async function forgetFollowedStops(): Promise<void> {
    const store = gw.app.get(PendingStopStore);
    const followed = await store.all('qwen');
    await store.apply('qwen', new Map(followed.map((entry) => [entry.podId, null])));
  }

  const onVolume = (id: string, listedStatus = 'RUNNING') =>
    gw.fake.setPod(id, { volumeId: OUR_VOLUME, listedStatus });

  it('stops every pod on the volume (a stale pod and its replacement may both bill)', async () => {
    onVolume('stale');
    onVolume('fresh');
    gw.fake.setPod('elsewhere', { volumeId: 'vol-other' });
    const answer = await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      name: 'qwen',
      ok: true,
      pods: [
        { podId: 'stale', ok: true },
        { podId: 'fresh', ok: true },
      ],
      stopConfirmed: false,
    });
    expect(gw.fake.billableCalls).toEqual(['stop stale', 'stop fresh']);
  });

  it('a pod already EXITED is reported ok without a call', async () => {
    onVolume('down', 'EXITED');
    onVolume('up');
    const answer = await gw.request('POST', '/api/pods/QWEN/stop', OPERATOR);
    expect(answer.body).toEqual({
      name: 'qwen',
      ok: true,
      pods: [
        { podId: 'down', ok: true },
        { podId: 'up', ok: true },
      ],
      stopConfirmed: false,
    });
    expect(gw.fake.billableCalls).toEqual(['stop up']);
  });

  it('a refused stop is still 200, with ok false for that pod and overall', async () => {
    onVolume('a');
    gw.fake.setPod('b', { volumeId: OUR_VOLUME, stop: 'refused' });
    const answer = await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      name: 'qwen',
      ok: false,
      pods: [
        { podId: 'a', ok: true },
        { podId: 'b', ok: false },
      ],
      stopConfirmed: false,
    });
    expect(gw.fake.billableCalls).toEqual(['stop a', 'stop b']);
  });

  it('every pod already down: stopConfirmed true at once, and nothing is followed', async () => {
    await forgetFollowedStops();
    onVolume('down', 'EXITED');
    const answer = await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
    expect(answer.body).toMatchObject({ ok: true, stopConfirmed: true });
    expect(gw.fake.billableCalls).toEqual([]);
    expect((await gw.request('GET', '/api/pods/qwen')).body).toMatchObject({ stopConfirmed: null });
  });

  it('a stop sent to a running pod is followed: GET says stopConfirmed false until a tick sees it down', async () => {
    await forgetFollowedStops();
    expect((await gw.request('GET', '/api/pods/qwen')).body).toMatchObject({ stopConfirmed: null });
    onVolume('up');
    await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
    expect((await gw.request('GET', '/api/pods/qwen')).body).toMatchObject({ stopConfirmed: false });
    const followed = await gw.app.get(PendingStopStore).all('qwen');
    expect(followed).toEqual([
      expect.objectContaining({
        podId: 'up',
        trigger: 'manual',
        ticksWaited: 0,
        restops: 0,
        confirmedAt: null,
      }),
    ]);
  });

  it('records every stop it issued in the action log with trigger manual', async () => {
    onVolume('rec');
    await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
    const [newest] = await gw.app.get(ActionLog).recent('qwen', 1);
    expect(newest).toMatchObject({ action: 'Stop', podId: 'rec', trigger: 'manual', ok: true });
  });

  it('an unreadable volume lookup is 503 and stops nothing', async () => {
    onVolume('kept');
    gw.fake.listFails('http 502');
    const answer = await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
    expect(answer.status).toBe(503);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ status: 503, title: 'Volume lookup unreadable' });
    expect(gw.fake.calls).toEqual(['list']);
  });

  it('no pod on the volume is a 404 problem', async () => {
    gw.fake.setPod('x', { volumeId: 'vol-other' });
    const answer = await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ status: 404, title: 'No pod on the volume' });
    expect(gw.fake.calls).toEqual(['list']);
  });

  it('a stop makes the next GET read afresh instead of joining a read that began before it', async () => {
    onVolume('g');
    const firstList = deferred();
    gw.fake.holdNextList = firstList.promise;
    const before = gw.request('GET', '/api/pods/qwen');
    await until(() => gw.fake.count('list') === 1, 'the held GET to list');
    expect((await gw.request('POST', '/api/pods/qwen/stop', OPERATOR)).status).toBe(200);
    const after = await gw.request('GET', '/api/pods/qwen');
    expect(after.status).toBe(200);
    // One list for the held GET, one for the stop, one for the GET after the stop.
    expect(gw.fake.count('list')).toBe(3);
    firstList.release();
    expect((await before).status).toBe(200);
  });

  it('never leaks a secret in the answers and log lines it produces', async () => {
    const produced = await gw.produced(async () => {
      onVolume('a');
      gw.fake.setPod('b', { volumeId: OUR_VOLUME, stop: 'refused' });
      await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
      gw.fake.listFails('http 502');
      await gw.request('POST', '/api/pods/qwen/stop', OPERATOR);
      await gw.request('POST', '/api/pods/qwen/stop', { 'X-Rig-Operator-Token': 'wrong' });
    });
    expect(produced.answers.map((answer) => answer.status)).toEqual([200, 503, 401]);
    expect(leakedSecrets(produced)).toEqual([]);
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
