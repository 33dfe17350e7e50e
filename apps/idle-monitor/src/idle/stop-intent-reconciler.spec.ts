import type { PodList } from '@podwarden/policies';
import {
  ActionLog,
  BillableIntents,
  IdleStateStore,
  RedisKeys,
  type BillableIntent,
} from '@podwarden/platform';
import { newStopService } from '@podwarden/platform/testing/new-stop-service';
import { FakeRunPod, captureLogs, onePodListed, testConfig, useTestRedis } from '@podwarden/testing';
import { StopIntentReconciler } from './stop-intent-reconciler';

const db = useTestRedis('stop-intent-rec');
const KEYS = new RedisKeys(db.prefix);
const SENT = '2026-12-01T06:30:00.000Z';
const T0 = Date.parse(SENT);
const TIMEOUT_MS = 10_000;

function setup() {
  const cfg = testConfig({ RUNPOD_TIMEOUT_MS: String(TIMEOUT_MS) });
  const pod = cfg.pods[0];
  const logs = captureLogs();
  const clock = { now: T0 };
  const intents = new BillableIntents(db.redis, KEYS);
  const actions = new ActionLog(db.redis, KEYS, logs.logger);
  const reconciler = new StopIntentReconciler({
    config: cfg,
    intents,
    actions,
    logger: logs.logger,
    now: () => clock.now,
  });
  const intent = (patch: Partial<BillableIntent> = {}): BillableIntent => ({
    id: 'i1',
    at: SENT,
    podName: pod.name,
    action: 'Stop',
    podId: 'p1',
    gpuId: 'L40S',
    pricePerHour: 0.5,
    requestName: null,
    attemptId: 'stop:idle',
    fenceToken: null,
    answeredStatus: null,
    trigger: 'idle',
    ...patch,
  });
  const stops = async () => (await actions.recent(pod.name, 10)).filter((a) => a.action === 'Stop');
  return { cfg, pod, logs, clock, intents, actions, reconciler, intent, stops };
}

describe(StopIntentReconciler.name, () => {
  it('records a Stop intent older than the client timeout, with the pod as listed now, and settles it', async () => {
    const s = setup();
    await s.intents.begin(s.intent());
    s.clock.now = T0 + TIMEOUT_MS + 1;

    await s.reconciler.read([s.pod], onePodListed('EXITED'));

    expect(await s.stops()).toEqual([
      {
        at: new Date(T0 + TIMEOUT_MS + 1).toISOString(),
        podName: s.pod.name,
        action: 'Stop',
        podId: 'p1',
        gpuId: 'L40S',
        pricePerHour: 0.5,
        httpStatus: 0,
        ok: false,
        trigger: 'idle',
        detail: `reconciled from an intent whose caller died before RunPod answered (sent ${SENT}); answer unknown; the pod is now EXITED`,
      },
    ]);
    expect(await s.intents.open(s.pod.name)).toEqual([]);
  });

  it("records the ERROR guard's Terminate intent the same way, as a Terminate; the waker's own terminates are left to it", async () => {
    const s = setup();
    await s.intents.begin(
      s.intent({ id: 'guard', action: 'Terminate', attemptId: 'stop:error', trigger: 'error' }),
    );
    await s.intents.begin(
      s.intent({ id: 'wake', action: 'Terminate', attemptId: 'attempt-1', trigger: undefined }),
    );
    s.clock.now = T0 + TIMEOUT_MS + 1;

    await s.reconciler.read([s.pod], onePodListed('TERMINATED'));

    expect(await s.actions.recent(s.pod.name, 10)).toEqual([
      expect.objectContaining({
        action: 'Terminate',
        podId: 'p1',
        httpStatus: 0,
        ok: false,
        trigger: 'error',
        detail: `reconciled from an intent whose caller died before RunPod answered (sent ${SENT}); answer unknown; the pod is now TERMINATED`,
      }),
    ]);
    expect((await s.intents.open(s.pod.name)).map((i) => i.id)).toEqual(['wake']);
    expect(s.logs.messages('warn')).toContain(
      'reconciled terminate of pod p1 whose caller died before its answer (now TERMINATED)',
    );
  });

  it.each<[string, PodList, string]>([
    ['gone from the list', onePodListed(null), 'not listed'],
    ['an unreadable list', { kind: 'unreadable', reason: 'HTTP 500' }, 'unknown (the list was unreadable)'],
    ['still running', onePodListed('RUNNING'), 'RUNNING'],
  ])('says what the tick saw as evidence: %s', async (_name, list, status) => {
    const s = setup();
    await s.intents.begin(s.intent());
    s.clock.now = T0 + TIMEOUT_MS + 1;

    await s.reconciler.read([s.pod], list);

    const [row] = await s.stops();
    expect(row.detail).toContain(`the pod is now ${status}`);
  });

  it('the Warning of a reconciled Stop says stop, the pod id and the status now listed', async () => {
    const s = setup();
    await s.intents.begin(s.intent());
    s.clock.now = T0 + TIMEOUT_MS + 1;

    await s.reconciler.read([s.pod], onePodListed('EXITED'));

    expect(s.logs.messages('warn')).toEqual([
      'reconciled stop of pod p1 whose caller died before its answer (now EXITED)',
    ]);
  });

  it('an intent written without a pod id is named "-" in its Warning', async () => {
    const s = setup();
    await s.intents.begin(s.intent({ podId: null }));
    s.clock.now = T0 + TIMEOUT_MS + 1;

    await s.reconciler.read([s.pod], onePodListed('EXITED'));

    expect(s.logs.messages('warn')).toEqual([
      'reconciled stop of pod - whose caller died before its answer (now not listed)',
    ]);
  });

  it("the evidence is the intent's own pod as listed, not the first pod of the list", async () => {
    const s = setup();
    await s.intents.begin(s.intent());
    s.clock.now = T0 + TIMEOUT_MS + 1;
    const [p1] = (onePodListed('EXITED') as Extract<PodList, { kind: 'listed' }>).pods;
    const list: PodList = { kind: 'listed', pods: [{ ...p1, id: 'p9', status: 'RUNNING' }, p1] };

    await s.reconciler.read([s.pod], list);

    const [row] = await s.stops();
    expect(row.detail).toBe(
      `reconciled from an intent whose caller died before RunPod answered (sent ${SENT}); answer unknown; the pod is now EXITED`,
    );
  });

  it("a pod whose intents Redis cannot read is one Error naming it; the next pod's are still reconciled", async () => {
    const s = setup();
    await s.intents.begin(s.intent());
    s.clock.now = T0 + TIMEOUT_MS + 1;
    const broken = { ...s.pod, name: 'broken' };
    const reconciler = new StopIntentReconciler({
      config: s.cfg,
      intents: {
        open: (name: string) =>
          name === 'broken' ? Promise.reject(new Error('LOADING')) : s.intents.open(name),
      },
      actions: s.actions,
      logger: s.logs.logger,
      now: () => s.clock.now,
    });

    await expect(reconciler.read([broken, s.pod], onePodListed('EXITED'))).resolves.toBeUndefined();

    expect(s.logs.lines.filter((l) => l.level === 50)).toEqual([
      expect.objectContaining({
        pod: 'broken',
        err: 'LOADING',
        msg: 'stop intents not reconciled this tick',
      }),
    ]);
    expect(await s.stops()).toEqual([expect.objectContaining({ podId: 'p1', trigger: 'idle' })]);
    expect(await s.intents.open(s.pod.name)).toEqual([]);
  });

  it('leaves a Stop intent younger than the client timeout to its caller', async () => {
    const s = setup();
    await s.intents.begin(s.intent());
    s.clock.now = T0 + TIMEOUT_MS;

    await s.reconciler.read([s.pod], onePodListed('EXITED'));

    expect(await s.stops()).toEqual([]);
    expect(await s.intents.open(s.pod.name)).toHaveLength(1);
  });

  it("leaves the waker's intents (a Start) alone, however old", async () => {
    const s = setup();
    await s.intents.begin(s.intent({ action: 'Start', trigger: undefined }));
    s.clock.now = T0 + 100 * TIMEOUT_MS;

    await s.reconciler.read([s.pod], onePodListed('RUNNING'));

    expect(await s.actions.recent(s.pod.name, 10)).toEqual([]);
    expect(await s.intents.open(s.pod.name)).toHaveLength(1);
  });

  it('two replicas reconciling the same intent at once record it once', async () => {
    const s = setup();
    await s.intents.begin(s.intent());
    s.clock.now = T0 + TIMEOUT_MS + 1;

    await Promise.all([
      s.reconciler.read([s.pod], onePodListed('EXITED')),
      s.reconciler.read([s.pod], onePodListed('EXITED')),
    ]);

    expect(await s.stops()).toHaveLength(1);
  });

  it('a stop answered after the reconcile recorded it is not recorded twice', async () => {
    const s = setup();
    const fake = new FakeRunPod().setPod('p1', { volumeId: 'vol-1' });
    const service = newStopService({
      config: s.cfg,
      client: fake.asRunPodClient(),
      actions: s.actions,
      idleStates: new IdleStateStore(db.redis, KEYS),
      logger: s.logs.logger,
      now: () => s.clock.now,
      intents: s.intents,
    });
    // The answer is late: the next tick, past the client timeout, reconciles while the call is out.
    fake.onStop(async () => {
      s.clock.now = T0 + TIMEOUT_MS + 1;
      await s.reconciler.read([s.pod], onePodListed('EXITED'));
      return { ok: true, httpStatus: 200, detail: null };
    });

    await service.stopPods(s.pod, ['p1'], 'idle');

    const rows = await s.stops();
    expect(rows).toHaveLength(1);
    expect(rows[0].detail).toContain('reconciled from an intent whose caller died');
    expect(await s.intents.open(s.pod.name)).toEqual([]);
  });
});
