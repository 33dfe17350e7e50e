import {
  FakeRunPod,
  RecordedEvents,
  captureLogs,
  connectTestRedis,
  testConfig,
  useTestRedis,
} from '@podwarden/testing';
import { IdleStateStore } from '../idle/idle-state-store';
import { PodwardenMetrics } from '../metrics/podwarden-metrics';
import { ActionLog } from '../records/action-log';
import { BillableIntents, type BillableIntent } from '../records/billable-intents';
import { RedisKeys } from '../redis/redis-keys';
import { newStopService } from '../testing/new-stop-service';

const db = useTestRedis('stop-terminate');
const KEYS = new RedisKeys(db.prefix);
const AT = '2026-12-01T06:30:00.000Z';

function harness(intents: BillableIntents = new BillableIntents(db.redis, KEYS)) {
  const config = testConfig();
  const pod = config.pods[0];
  const logs = captureLogs();
  const events = new RecordedEvents();
  const metrics = new PodwardenMetrics();
  const runpod = new FakeRunPod().setPod('p1', { listedStatus: 'ERROR', gpuId: 'L40S', costPerHr: 0.5 });
  const actions = new ActionLog(db.redis, KEYS, logs.logger);
  const sut = newStopService({
    config,
    client: runpod.asRunPodClient(),
    actions,
    idleStates: new IdleStateStore(db.redis, KEYS),
    logger: logs.logger,
    now: () => Date.parse(AT),
    events,
    intents,
    metrics,
  });
  const open = () => new BillableIntents(db.redis, KEYS).open(pod.name);
  const listed = [
    {
      id: 'p1',
      name: 'x',
      status: 'ERROR',
      volumeIds: ['vol-1'],
      costPerHr: 0.5,
      gpuId: 'L40S',
      createdAt: null,
    },
  ];
  const counted = async () =>
    (await metrics.registry.getSingleMetric('podwarden_stop_actions_total')!.get()).values.map(
      (v) => `${v.labels.action} ${v.labels.trigger} ${v.labels.outcome} ${v.value}`,
    );
  return { sut, pod, logs, runpod, open, actions, events, listed, counted };
}

describe('StopService.terminatePod (the ERROR guard fallback)', () => {
  it('writes a Terminate intent before the call, records the answer with its trigger (claiming the intent), announces and counts it', async () => {
    const h = harness();
    let during: BillableIntent[] = [];
    h.runpod.onTerminate(async () => {
      during = await h.open();
      return { ok: true, httpStatus: 204, detail: null };
    });

    const outcome = await h.sut.terminatePod(h.pod, 'p1', 'error', h.listed);

    expect(outcome).toEqual({ podId: 'p1', ok: true, httpStatus: 204, called: true });
    expect(h.runpod.billableCalls).toEqual(['terminate p1']);
    expect(during).toEqual([
      expect.objectContaining({
        action: 'Terminate',
        podId: 'p1',
        trigger: 'error',
        attemptId: 'stop:error',
      }),
    ]);
    expect(await h.open()).toEqual([]);
    expect(await h.actions.recent(h.pod.name, 10)).toEqual([
      expect.objectContaining({
        action: 'Terminate',
        podId: 'p1',
        gpuId: 'L40S',
        pricePerHour: 0.5,
        httpStatus: 204,
        ok: true,
        trigger: 'error',
      }),
    ]);
    expect(h.events.of('stop')).toEqual([
      {
        podId: 'p1',
        trigger: 'error',
        action: 'terminate',
        ok: true,
        httpStatus: 204,
        gpuId: 'L40S',
        pricePerHour: 0.5,
      },
    ]);
    expect(await h.counted()).toEqual(['Terminate error accepted 1']);
    expect(h.logs.messages('info')).toContain('terminated pod p1 (error)');
  });

  it('a refused terminate is recorded as refused, its intent closed, and counted as refused', async () => {
    const h = harness();
    h.runpod.onTerminate({ ok: false, httpStatus: 409, detail: 'no' });

    const outcome = await h.sut.terminatePod(h.pod, 'p1', 'error', h.listed);

    expect(outcome).toMatchObject({ ok: false, httpStatus: 409 });
    expect(await h.open()).toEqual([]);
    expect(await h.actions.recent(h.pod.name, 10)).toEqual([
      expect.objectContaining({ action: 'Terminate', ok: false, httpStatus: 409, trigger: 'error' }),
    ]);
    expect(await h.counted()).toEqual(['Terminate error refused 1']);
    expect(h.logs.messages('warn')).toContain('termination of pod p1 refused (error, HTTP 409)');
  });

  it('still terminates, and records, when Redis does not take the intent', async () => {
    const dead = connectTestRedis();
    await dead.quit();
    const h = harness(new BillableIntents(dead, KEYS));

    await h.sut.terminatePod(h.pod, 'p1', 'error', h.listed);

    expect(h.runpod.billableCalls).toEqual(['terminate p1']);
    expect(await h.actions.recent(h.pod.name, 10)).toEqual([
      expect.objectContaining({ action: 'Terminate', ok: true }),
    ]);
    expect(h.logs.messages('warn')).toContain(
      'terminate intent not written (Redis); terminating anyway, a crash before the answer would go unrecorded',
    );
  });

  it('every stop is counted by trigger and outcome', async () => {
    const h = harness();
    h.runpod.onStop({ ok: false, httpStatus: 400, detail: 'no' });

    await h.sut.stopPods(h.pod, ['p1'], 'error');
    await h.sut.stopPods(h.pod, ['p1'], 'idle');

    expect((await h.counted()).sort()).toEqual(['Stop error refused 1', 'Stop idle accepted 1']);
  });
});
