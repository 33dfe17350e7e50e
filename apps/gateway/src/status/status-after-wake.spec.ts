import { StatusSnapshotStore, WakeHistory } from '@podwarden/platform';
import { OUR_VOLUME } from '@podwarden/testing';
import { deferred, startGateway, type GatewayHarness } from '../testing/gateway-harness';

const REQUESTED_AT = '2026-09-11T08:50:00.000Z';

/**
 * A wake that ends drops the status snapshot, then writes its Completed record
 * (the waker's order). GET reads the records before the snapshot, so a wake
 * ending between the two reads is never shown beside the pod state from before it.
 */
describe('GET while a wake ends', () => {
  let gw: GatewayHarness;

  beforeAll(async () => {
    gw = await startGateway('status-wake-end');
  });
  afterAll(async () => {
    await gw.close();
  });
  beforeEach(() => gw.resetRunPod());

  it('never pairs the wake Succeeded with the snapshot read while its pod was still starting', async () => {
    gw.fake.setPod('new1', { volumeId: OUR_VOLUME, listedStatus: 'RUNNING', observation: 'Starting' });
    const history = gw.app.get(WakeHistory);
    const store = gw.app.get(StatusSnapshotStore);
    await history.requested({
      podName: 'qwen',
      attemptId: 'att-1',
      requestedAt: REQUESTED_AT,
      requestedBy: 'gateway',
    });
    expect((await gw.request('GET', '/api/pods/qwen')).body).toMatchObject({
      podId: 'new1',
      isRunning: false,
      lastWake: null,
    });

    // The pod runs and its wake ends exactly between GET's two reads, whichever it makes first.
    gw.fake.setPod('new1', { observation: 'Running' });
    const wakeEnded = deferred();
    let snapshotReadBegun = false;
    const readSnapshot = store.read.bind(store);
    jest.spyOn(store, 'read').mockImplementationOnce(async (podName) => {
      snapshotReadBegun = true;
      const reading = await readSnapshot(podName);
      await store.invalidate('qwen');
      await history.completed({
        podName: 'qwen',
        attemptId: 'att-1',
        requestedAt: REQUESTED_AT,
        requestedBy: 'gateway',
        completedAt: '2026-09-11T08:51:00.000Z',
        outcome: 'Succeeded',
        wakeOutcome: 'Created',
        reason: 'created pod new1',
        podId: 'new1',
        gpuId: 'NVIDIA L40S',
        pricePerHour: 0.86,
        candidatesConsidered: 1,
        lastProviderStatus: 201,
      });
      wakeEnded.release();
      return reading;
    });
    const readLast = history.last.bind(history);
    jest.spyOn(history, 'last').mockImplementationOnce(async (podName) => {
      // Read after the snapshot only when GET began with the snapshot.
      if (snapshotReadBegun) await wakeEnded.promise;
      return readLast(podName);
    });

    const during = (await gw.request('GET', '/api/pods/qwen')).body;
    const after = (await gw.request('GET', '/api/pods/qwen')).body;

    expect(snapshotReadBegun).toBe(true);
    expect(during).toMatchObject({ podId: 'new1', isRunning: false, lastWake: null });
    expect(after).toMatchObject({
      podId: 'new1',
      isRunning: true,
      lastWake: { attemptId: 'att-1', outcome: 'Succeeded' },
    });
  });
});
