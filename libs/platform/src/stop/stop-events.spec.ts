import { INITIAL_IDLE_STATE, parseConfig, type PodwardenConfig } from '@podwarden/policies';
import {
  FAKE_REFUSED_STATUS,
  FakeRunPod,
  RecordedEvents,
  captureLogs,
  useTestRedis,
} from '@podwarden/testing';
import { IdleStateStore } from '../idle/idle-state-store';
import { ActionLog } from '../records/action-log';
import { RedisKeys } from '../redis/redis-keys';
import { newStopService } from '../testing/new-stop-service';

const db = useTestRedis('stop-events');
const KEYS = new RedisKeys(db.prefix);

function config(): PodwardenConfig {
  const parsed = parseConfig({ RUNPOD_API_KEY: 'k', RUNPOD_VOLUME_ID: 'vol-1' }, null);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
}

describe('StopService: what it announces on the event stream', () => {
  function harness(runpod: FakeRunPod) {
    const logs = captureLogs();
    const events = new RecordedEvents();
    const store = new IdleStateStore(db.redis, KEYS);
    const actions = new ActionLog(db.redis, KEYS, logs.logger);
    const sut = newStopService({
      config: config(),
      client: runpod,
      actions,
      idleStates: store,
      logger: logs.logger,
      events,
    });
    return { sut, events, store, pod: config().pods[0] };
  }

  it('every stop call with its trigger and result, then the manual Down edge of a ready pod', async () => {
    const h = harness(
      new FakeRunPod().setPod('p1').setPod('p2', { gpuId: 'NVIDIA RTX A6000', costPerHr: 0.49 }),
    );
    await h.store.save('qwen', {
      state: { ...INITIAL_IDLE_STATE, phase: 'Ready', readySince: 1, upSince: 1 },
      baselines: {},
      updatedAt: 1,
      lastTickId: 'tick-1',
    });

    await h.sut.stopVolume(h.pod, 'manual');

    expect(h.events.events).toEqual([
      {
        pod: 'qwen',
        type: 'stop',
        data: expect.objectContaining({ podId: 'p1', trigger: 'manual', ok: true, httpStatus: 200 }),
      },
      {
        pod: 'qwen',
        type: 'stop',
        data: {
          podId: 'p2',
          trigger: 'manual',
          ok: true,
          httpStatus: 200,
          gpuId: 'NVIDIA RTX A6000',
          pricePerHour: 0.49,
        },
      },
      {
        pod: 'qwen',
        type: 'phase',
        data: { phase: 'down', from: 'ready', readySince: null, stopReason: 'manual' },
      },
    ]);
  });

  it('a refused stop is announced as refused, and there is no Down edge', async () => {
    const h = harness(new FakeRunPod().setPod('p1', { stop: 'refused' }));

    await h.sut.stopVolume(h.pod, 'idle');

    expect(h.events.types()).toEqual(['stop']);
    expect(h.events.of('stop')[0]).toMatchObject({
      podId: 'p1',
      trigger: 'idle',
      ok: false,
      httpStatus: FAKE_REFUSED_STATUS,
    });
  });

  it('a pod already down: no stop call, no event, and no Down edge for a state that was down', async () => {
    const h = harness(new FakeRunPod().setPod('gone', { listedStatus: 'EXITED' }));
    await h.sut.stopVolume(h.pod, 'manual');
    expect(h.events.events).toEqual([]);
  });
});
