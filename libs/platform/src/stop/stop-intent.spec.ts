import type { PodActionResult } from '@podwarden/runpod-client';
import { FakeRunPod, captureLogs, connectTestRedis, testConfig, useTestRedis } from '@podwarden/testing';
import { IdleStateStore } from '../idle/idle-state-store';
import { ActionLog } from '../records/action-log';
import type { ActionRecord } from '../records/action-record';
import { BillableIntents, type BillableIntent } from '../records/billable-intents';
import { RedisKeys } from '../redis/redis-keys';
import { newStopService } from '../testing/new-stop-service';

const db = useTestRedis('stop-intent');
const KEYS = new RedisKeys(db.prefix);
const AT = '2026-12-01T06:30:00.000Z';
const ACCEPTED: PodActionResult = { ok: true, httpStatus: 200, detail: null };
const RECONCILED: ActionRecord = {
  at: AT,
  podName: '',
  action: 'Stop',
  podId: 'p1',
  gpuId: null,
  pricePerHour: null,
  httpStatus: 0,
  ok: false,
  trigger: 'idle',
  detail: 'reconciled by the test',
};

function harness(intents: BillableIntents = new BillableIntents(db.redis, KEYS)) {
  const config = testConfig();
  const pod = config.pods[0];
  const logs = captureLogs();
  const runpod = new FakeRunPod().setPod('p1', { volumeId: 'vol-1', gpuId: 'L40S', costPerHr: 0.5 });
  const actions = new ActionLog(db.redis, KEYS, logs.logger);
  const sut = newStopService({
    config,
    client: runpod.asRunPodClient(),
    actions,
    idleStates: new IdleStateStore(db.redis, KEYS),
    logger: logs.logger,
    now: () => Date.parse(AT),
    intents,
  });
  const open = () => new BillableIntents(db.redis, KEYS).open(pod.name);
  const stops = async () => (await actions.recent(pod.name, 10)).filter((a) => a.action === 'Stop');
  return { sut, pod, logs, runpod, open, stops, actions };
}

describe('StopService write-ahead Stop intent', () => {
  it('writes the Stop intent before the call and settles it once the answer is recorded', async () => {
    const h = harness();
    let during: BillableIntent[] = [];
    h.runpod.onStop(async () => {
      during = await h.open();
      return ACCEPTED;
    });

    await h.sut.stopPods(h.pod, ['p1'], 'idle');

    expect(during).toEqual([
      expect.objectContaining({
        action: 'Stop',
        podName: h.pod.name,
        podId: 'p1',
        at: AT,
        trigger: 'idle',
        answeredStatus: null,
      }),
    ]);
    expect(await h.open()).toEqual([]);
    expect(await h.stops()).toEqual([
      expect.objectContaining({ podId: 'p1', ok: true, httpStatus: 200, trigger: 'idle' }),
    ]);
  });

  it('settles the intent of a refused stop too, with the refusal recorded', async () => {
    const h = harness();
    h.runpod.onStop({ ok: false, httpStatus: 500, detail: 'boom' });

    await h.sut.stopPods(h.pod, ['p1'], 'manual');

    expect(await h.open()).toEqual([]);
    expect(await h.stops()).toEqual([expect.objectContaining({ podId: 'p1', ok: false, httpStatus: 500 })]);
  });

  it('an answer that comes after its intent was reconciled records nothing more: the reconciled row stands', async () => {
    const h = harness();
    h.runpod.onStop(async () => {
      // What the idle monitor's reconcile writes: its row, claiming the intent in the same write.
      const [intent] = await h.open();
      const row = { ...RECONCILED, podName: intent.podName };
      expect(await h.actions.record(row, { mode: 'claim', intent })).toBe('recorded');
      return ACCEPTED;
    });

    await h.sut.stopPods(h.pod, ['p1'], 'idle');

    expect(await h.stops()).toEqual([expect.objectContaining({ detail: RECONCILED.detail, httpStatus: 0 })]);
    expect(await h.open()).toEqual([]);
    expect(h.logs.messages('warn')).toContain(
      'stopped pod p1 (idle) (not recorded: its intent was already reconciled; that row stands)',
    );
  });

  it('still stops, and records, when Redis does not take the intent', async () => {
    const dead = connectTestRedis();
    await dead.quit();
    const h = harness(new BillableIntents(dead, KEYS));

    await h.sut.stopPods(h.pod, ['p1'], 'manual');

    expect(h.runpod.billableCalls).toEqual(['stop p1']);
    expect(await h.stops()).toEqual([expect.objectContaining({ podId: 'p1', ok: true })]);
  });
});
