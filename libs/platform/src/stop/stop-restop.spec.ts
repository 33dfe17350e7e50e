import { INITIAL_IDLE_STATE, type ListedPod } from '@podwarden/policies';
import type { PodActionResult } from '@podwarden/runpod-client';
import {
  FAKE_REFUSED_DETAIL,
  FAKE_REFUSED_STATUS,
  FakeRunPod,
  RecordedEvents,
  actionAccepted,
  captureLogs,
  testConfig,
  useTestRedis,
} from '@podwarden/testing';
import { IdleStateStore } from '../idle/idle-state-store';
import type { ActionRecord } from '../records/action-record';
import { RedisKeys } from '../redis/redis-keys';
import { newStopService } from '../testing/new-stop-service';
import type { RestopNote } from './stop-service';

const db = useTestRedis('stop-restop');
const KEYS = new RedisKeys(db.prefix);
const AT = '2026-11-30T10:15:00.000Z';
const RESTOP: RestopNote = { detail: 're-stop 1 of 2: still RUNNING after 3 ticks' };

/** The action log as the stop path uses it: every record kept in order. */
class RecordingActions {
  readonly entries: ActionRecord[] = [];
  async record(entry: ActionRecord): Promise<'recorded'> {
    this.entries.push(entry);
    return 'recorded';
  }
}

/** The pending-stop store: every follow kept, or refused when `fails` is set. */
class RecordingPendingStops {
  readonly tracked: unknown[][] = [];
  fails = false;
  async track(...args: unknown[]): Promise<void> {
    if (this.fails) throw new Error('redis down');
    this.tracked.push(args);
  }
}

const listed = (id: string, gpuId: string, costPerHr: number): ListedPod => ({
  id,
  name: null,
  status: 'RUNNING',
  volumeIds: ['vol-1'],
  costPerHr,
  gpuId,
  createdAt: null,
});

function harness(runpod: FakeRunPod, stopWakes?: () => Promise<number>) {
  const logs = captureLogs();
  const actions = new RecordingActions();
  const pending = new RecordingPendingStops();
  const events = new RecordedEvents();
  const store = new IdleStateStore(db.redis, KEYS);
  const wakes = stopWakes === undefined ? undefined : { stopWakes };
  const sut = newStopService({
    config: testConfig(),
    client: runpod,
    actions,
    idleStates: store,
    logger: logs.logger,
    now: () => Date.parse(AT),
    events,
    wakes,
    pendingStops: pending,
  });
  return { sut, logs, actions, pending, events, store, pod: testConfig().pods[0] };
}

describe('StopService: following accepted stops and re-stops', () => {
  it.each<[string, PodActionResult | 'refused', RestopNote | undefined, unknown[][]]>([
    [
      'an accepted stop is followed until a tick sees it down',
      actionAccepted(),
      undefined,
      [['qwen', 'p1', 'idle', Date.parse(AT)]],
    ],
    ['a refused stop is not followed', 'refused', undefined, []],
    ['an accepted re-stop is not followed anew', actionAccepted(), RESTOP, []],
  ])('%s', async (_case, answer, restop, tracked) => {
    const runpod = new FakeRunPod().setPod('p1', answer === 'refused' ? { stop: 'refused' } : {});
    if (answer !== 'refused') runpod.onStop(answer);
    const h = harness(runpod);

    await h.sut.stopPods(h.pod, ['p1'], 'idle', [], restop);

    expect(h.pending.tracked).toEqual(tracked);
    expect(runpod.billableCalls).toEqual(['stop p1']);
  });

  it.each<[string, PodActionResult | 'refused', RestopNote, string | null, 'info' | 'warn', string]>([
    [
      'accepted: its detail is the re-stop note',
      actionAccepted(),
      RESTOP,
      RESTOP.detail,
      'info',
      're-stopped pod p1 (idle)',
    ],
    [
      "refused: the note, then RunPod's detail",
      'refused',
      RESTOP,
      `${RESTOP.detail}; ${FAKE_REFUSED_DETAIL}`,
      'warn',
      `stop of pod p1 refused (idle, HTTP ${FAKE_REFUSED_STATUS})`,
    ],
    [
      "accepted with an empty note and RunPod's detail: that detail alone",
      { ok: true, httpStatus: 200, detail: 'accepted late' },
      { detail: '' },
      'accepted late',
      'info',
      're-stopped pod p1 (idle)',
    ],
  ])('a re-stop %s', async (_case, answer, restop, detail, level, line) => {
    const runpod = new FakeRunPod().setPod('p1', answer === 'refused' ? { stop: 'refused' } : {});
    if (answer !== 'refused') runpod.onStop(answer);
    const h = harness(runpod);

    await h.sut.stopPods(h.pod, ['p1'], 'idle', [listed('p1', 'NVIDIA L40S', 0.86)], restop);

    const ok = answer !== 'refused';
    expect(h.actions.entries).toEqual([
      {
        at: AT,
        podName: 'qwen',
        action: 'Stop',
        podId: 'p1',
        gpuId: 'NVIDIA L40S',
        pricePerHour: 0.86,
        httpStatus: ok ? 200 : FAKE_REFUSED_STATUS,
        ok,
        trigger: 'idle',
        detail,
      },
    ]);
    expect(h.logs.messages(level)).toEqual([line]);
  });

  it('an accepted stop Redis will not follow is still accepted, and says it will not be confirmed', async () => {
    const h = harness(new FakeRunPod().setPod('p1'));
    h.pending.fails = true;

    const outcomes = await h.sut.stopPods(h.pod, ['p1'], 'idle');

    expect(outcomes).toEqual([{ podId: 'p1', ok: true, httpStatus: 200, called: true }]);
    expect(h.logs.find('not followed')).toEqual([
      expect.objectContaining({
        level: 40,
        pod: 'qwen',
        podId: 'p1',
        err: 'redis down',
        msg: 'accepted stop not followed (Redis); it will not be confirmed',
      }),
    ]);
    expect(h.actions.entries.map((e) => e.ok)).toEqual([true]);
  });
});

describe('StopService: the operator fence, the ERROR guard and the Down edge', () => {
  it.each<[string, () => Promise<number>, object]>([
    [
      'a fence written is logged with its token',
      async () => 9,
      { level: 30, pod: 'qwen', fenceToken: 9, msg: 'operator stop: the wake in flight is fenced out' },
    ],
    [
      'a fence not written is logged with the error',
      () => Promise.reject(new Error('gate unreachable')),
      {
        level: 40,
        pod: 'qwen',
        err: 'gate unreachable',
        msg: 'operator stop could not fence the wake in flight; stopping the pods anyway',
      },
    ],
  ])('%s', async (_case, stopWakes, line) => {
    const h = harness(new FakeRunPod(), stopWakes);

    await h.sut.stopVolume(h.pod, 'manual');

    expect(h.logs.lines[0]).toEqual(expect.objectContaining(line));
  });

  it("the ERROR guard's terminate records the named pod's GPU and price from the listing", async () => {
    const runpod = new FakeRunPod().setPod('p1');
    const h = harness(runpod);

    await h.sut.terminatePod(h.pod, 'p1', 'error', [
      listed('other', 'NVIDIA H100 80GB HBM3', 2.69),
      listed('p1', 'NVIDIA RTX A6000', 0.49),
    ]);

    expect(runpod.billableCalls).toEqual(['terminate p1']);
    expect(h.actions.entries.map((e) => [e.action, e.podId, e.gpuId, e.pricePerHour])).toEqual([
      ['Terminate', 'p1', 'NVIDIA RTX A6000', 0.49],
    ]);
  });

  it('a manual stop of a booting pod announces the Down edge from booting', async () => {
    const h = harness(new FakeRunPod().setPod('p1'));
    await h.store.save('qwen', {
      state: { ...INITIAL_IDLE_STATE, phase: 'Booting', upSince: 1 },
      baselines: {},
      updatedAt: 1,
      lastTickId: 'tick-1',
    });

    await h.sut.stopVolume(h.pod, 'manual');

    expect(h.events.of('phase')).toEqual([
      { phase: 'down', from: 'booting', readySince: null, stopReason: 'manual' },
    ]);
  });
});
