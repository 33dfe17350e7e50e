import type { GpuCandidate } from '@podwarden/policies';
import { INTERRUPTED_DETAIL, type BillableIntent } from '@podwarden/platform';
import { emptyVolume, unreadableList, volumeWith } from '@podwarden/testing';
import { FIXED_NOW } from '../testing/fixed-clock';
import { L40S } from '../testing/gpu-catalogs';
import { MemoryIntents } from '../testing/memory-intents';
import { scriptedRunPod, wakeRunHarness } from '../testing/wake-run-harness';
import { wakeAction } from '../testing/wake-scenarios';
import { createsInDoubt, settleCreatesInDoubt } from './settle-creates-in-doubt';

const CANDIDATE: GpuCandidate = {
  gpuId: L40S,
  pricePerHour: 0.86,
  dataCenterAvailability: 'HIGH',
  vramGb: 48,
};
const REQUESTED = 'podwarden-qwen-20261130T101400Z';
// A 1 s settle period polled every 400 ms: ceil(1000 / 400) + 1 = 4 rounds at most.
const SETTLE_ENV = { WAKE_CREATE_SETTLE_SECONDS: '1', WAKE_POLL_INTERVAL_MS: '400' };
const SETTLE_MS = 1000;

/** A create intent written `ageMs` before the fixed clock's now. */
function doubt(id: string, ageMs: number, patch: Partial<BillableIntent> = {}): BillableIntent {
  return {
    id,
    at: new Date(Date.parse(FIXED_NOW) - ageMs).toISOString(),
    podName: 'qwen',
    action: 'Create',
    podId: null,
    gpuId: 'NVIDIA A40',
    pricePerHour: 0.44,
    requestName: REQUESTED,
    attemptId: 'attempt-0',
    fenceToken: 1,
    answeredStatus: 502,
    ...patch,
  };
}

async function harness(runpod = scriptedRunPod(), ...open: BillableIntent[]) {
  const intents = new MemoryIntents();
  for (const each of open) await intents.begin(each);
  const h = wakeRunHarness(runpod, { env: SETTLE_ENV, intents });
  return { h, ctx: h.context(), intents };
}

const SETTLE_REPORT = (round: number) => ({
  phase: 'settle',
  message: `a create may have placed a pod; re-reading the volume (round ${round})`,
});

describe(createsInDoubt.name, () => {
  it('is every open create, and no start or terminate', async () => {
    const terminate = doubt('t1', 0, { action: 'Terminate', podId: 'p1', requestName: null });
    const start = doubt('s1', 0, { action: 'Start', podId: 'p1', requestName: null });
    const { ctx } = await harness(scriptedRunPod(), terminate, doubt('c1', 0), start, doubt('c2', 5));

    expect((await createsInDoubt(ctx)).map((intent) => intent.id)).toEqual(['c1', 'c2']);
  });
});

describe(settleCreatesInDoubt.name, () => {
  it('while a young doubt stays unplaced, re-reads the volume for exactly ceil(settle / poll) + 1 rounds, then ends Waiting', async () => {
    const runpod = scriptedRunPod().onList(
      emptyVolume(),
      volumeWith(['p1']),
      volumeWith(['p1']),
      volumeWith(['p1']),
    );
    const { h, ctx, intents } = await harness(runpod, doubt('c1', SETTLE_MS - 1));

    const outcome = await settleCreatesInDoubt(ctx, CANDIDATE, ['p1']);

    expect(outcome).toEqual({
      kind: 'ended',
      result: {
        outcome: 'Waiting',
        failureKind: null,
        podId: null,
        gpuId: null,
        pricePerHour: null,
        message:
          '1 create(s) in doubt may have placed a pod; the volume has not settled, so no create was posted; poll again',
        candidatesConsidered: 0,
        lastProviderStatus: null,
      },
    });
    expect(runpod.calls).toEqual(['list', 'list', 'list', 'list']);
    expect(h.progress.reports).toEqual([SETTLE_REPORT(1), SETTLE_REPORT(2), SETTLE_REPORT(3)]);
    expect(h.sleeper.delays).toEqual([400, 400, 400]);
    expect(h.actions.entries).toEqual([]);
    expect([...intents.entries.keys()]).toEqual(['c1']);
  });

  it.each<[string, number | null, number]>([
    ['a create answered 502', 502, 502],
    ['no create answered yet in this run', null, 0],
  ])(
    'adopts a pod that appears on the volume in a later round, recording it as a Create (%s)',
    async (_case, lastStatus, httpStatus) => {
      const runpod = scriptedRunPod().onList(volumeWith(['p1']), volumeWith(['p1', 'new1']));
      const other = doubt('t1', 0, { action: 'Terminate', podId: 'p1', requestName: null });
      const { h, ctx, intents } = await harness(runpod, doubt('c1', 10), other, doubt('c2', 20));
      if (lastStatus !== null) ctx.state.noteCreate(lastStatus);

      const outcome = await settleCreatesInDoubt(ctx, CANDIDATE, ['p1']);

      expect(outcome).toEqual({ kind: 'placed', podId: 'new1', candidate: CANDIDATE });
      expect(h.actions.entries).toEqual([
        wakeAction({
          action: 'Create',
          podId: 'new1',
          gpuId: L40S,
          pricePerHour: 0.86,
          httpStatus,
          ok: true,
          detail: 'adopted after a transient create failure',
        }),
      ]);
      expect(h.logs.messages('info')).toEqual([
        'adopting pod new1 that a create in doubt placed on the volume',
      ]);
      // Every create in doubt is settled by the adoption; the terminate is not a create.
      expect([...intents.entries.keys()]).toEqual(['t1']);
      expect(runpod.calls).toEqual(['list', 'list']);
      expect(h.sleeper.delays).toEqual([400]);
    },
  );

  it('drops a doubt as old as the settle period and keeps one a millisecond younger', async () => {
    const runpod = scriptedRunPod().onList(...Array.from({ length: 4 }, () => volumeWith(['p1'])));
    const { h, ctx, intents } = await harness(runpod, doubt('old', SETTLE_MS), doubt('young', SETTLE_MS - 1));

    const outcome = await settleCreatesInDoubt(ctx, CANDIDATE, ['p1']);

    expect(outcome).toMatchObject({
      kind: 'ended',
      result: { outcome: 'Waiting', message: expect.stringMatching(/^1 create\(s\) in doubt/) },
    });

    expect(h.logs.find('doubt dropped')).toEqual([
      expect.objectContaining({ level: 30, pod: 'qwen', intent: 'old' }),
    ]);
    expect([...intents.entries.keys()]).toEqual(['young']);
  });

  it('past the settle period: an answered doubt is dropped with a log line, an unanswered one recorded as not placed', async () => {
    const runpod = scriptedRunPod().onList(volumeWith(['p1']));
    const { h, ctx, intents } = await harness(
      runpod,
      doubt('answered', SETTLE_MS + 5),
      doubt('unanswered', SETTLE_MS + 5, { answeredStatus: null }),
      doubt('nameless', SETTLE_MS + 5, { answeredStatus: null, requestName: null }),
    );

    const outcome = await settleCreatesInDoubt(ctx, CANDIDATE, ['p1']);

    expect(outcome).toEqual({ kind: 'clear' });
    const notPlaced = wakeAction({
      action: 'Create',
      podId: null,
      gpuId: 'NVIDIA A40',
      pricePerHour: 0.44,
      httpStatus: 0,
      ok: false,
      detail: `${INTERRUPTED_DETAIL}; not placed (volume re-read after the settle period)`,
    });
    expect(h.actions.entries).toEqual([notPlaced, notPlaced]);
    expect(h.logs.lines.map((line) => [line.level, line.msg])).toEqual([
      [30, 'create in doubt placed no pod; doubt dropped'],
      [40, `create ${REQUESTED} interrupted before its answer placed no pod on the volume`],
      [40, 'create  interrupted before its answer placed no pod on the volume'],
    ]);
    expect(h.logs.lines[0]).toMatchObject({ pod: 'qwen', intent: 'answered' });
    expect([...intents.entries.keys()]).toEqual([]);
    expect(runpod.calls).toEqual(['list']);
    expect(h.progress.reports).toEqual([]);
  });

  it('with no create in doubt the volume is read once and the walk may post', async () => {
    const runpod = scriptedRunPod().onList(volumeWith(['p1']));
    const { h, ctx } = await harness(runpod);

    expect(await settleCreatesInDoubt(ctx, CANDIDATE, ['p1'])).toEqual({ kind: 'clear' });
    expect(runpod.calls).toEqual(['list']);
    expect(h.sleeper.delays).toEqual([]);
  });

  it.each<[string, boolean, string]>([
    ['nothing billable went out yet: refused', false, 'refused'],
    ['a create may have placed a pod: a provider failure', true, 'provider'],
  ])('an unreadable re-read posts nothing (%s)', async (_case, billed, failureKind) => {
    const runpod = scriptedRunPod().onList(unreadableList('http 503'));
    const { h, ctx, intents } = await harness(runpod, doubt('c1', 10));
    if (billed) ctx.state.noteCreate(502);

    const outcome = await settleCreatesInDoubt(ctx, CANDIDATE, ['p1']);

    expect(outcome).toEqual({
      kind: 'ended',
      result: expect.objectContaining({
        outcome: 'Failed',
        failureKind,
        message: 'volume lookup unreadable (http 503) before a create; not posting',
      }),
    });
    expect(h.actions.entries).toEqual([]);
    expect([...intents.entries.keys()]).toEqual(['c1']);
  });
});
