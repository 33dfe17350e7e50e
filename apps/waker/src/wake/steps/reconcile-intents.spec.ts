import type { ListedPod } from '@podwarden/policies';
import { INTERRUPTED_DETAIL, type ActionRecord, type BillableIntent } from '@podwarden/platform';
import { OUR_VOLUME, listedPod, volumeWith } from '@podwarden/testing';
import { MemoryIntents } from '../testing/memory-intents';
import { scriptedRunPod, wakeRunHarness } from '../testing/wake-run-harness';
import { wakeAction } from '../testing/wake-scenarios';
import { readVolume } from './read-volume';
import { reconcileIntents } from './reconcile-intents';

function intent(id: string, patch: Partial<BillableIntent>): BillableIntent {
  return {
    id,
    at: '2026-12-01T06:30:00.000Z',
    podName: 'qwen',
    action: 'Terminate',
    podId: 'p1',
    gpuId: null,
    pricePerHour: null,
    requestName: null,
    attemptId: 'attempt-0',
    fenceToken: 1,
    answeredStatus: null,
    ...patch,
  };
}

const REQUESTED = 'podwarden-qwen-20261201T063000Z';

/** A pod the dead waker's create may have placed: listed under the create's requested name. */
function placed(id: string, volumeId: string, changes: Partial<ListedPod> = {}): ListedPod {
  return { ...listedPod(id, volumeId), name: REQUESTED, ...changes };
}

/** Reads the volume (as the run does first), then reconciles the given open intents against that read. */
async function reconcile(pods: readonly ListedPod[], ...open: BillableIntent[]) {
  const intents = new MemoryIntents();
  for (const each of open) await intents.begin(each);
  const h = wakeRunHarness(scriptedRunPod().onList(volumeWith([], pods)), { intents });
  const ctx = h.context();
  await readVolume(ctx);
  await reconcileIntents(ctx);
  return { h, intents, stillOpen: [...intents.entries.keys()] };
}

describe(reconcileIntents.name, () => {
  it("reconciles the waker's own terminate and leaves the stop path's intents (a stop, the ERROR guard's terminate) to the idle monitor", async () => {
    const intents = new MemoryIntents();
    await intents.begin(intent('waker', {}));
    await intents.begin(
      intent('stop', { action: 'Stop', attemptId: 'stop:idle', trigger: 'idle', fenceToken: null }),
    );
    await intents.begin(intent('guard', { attemptId: 'stop:error', trigger: 'error', fenceToken: null }));
    const h = wakeRunHarness(scriptedRunPod().onList(volumeWith(['p1'])), { intents });
    const ctx = h.context();

    await readVolume(ctx);
    await reconcileIntents(ctx);

    expect(h.actions.entries).toEqual([
      expect.objectContaining({ action: 'Terminate', podId: 'p1', ok: false, httpStatus: 0 }),
    ]);
    expect([...intents.entries.keys()]).toEqual(['stop', 'guard']);
  });

  describe('a create found placed in the fresh read', () => {
    const create = (answeredStatus: number | null) =>
      intent('c1', {
        action: 'Create',
        podId: null,
        gpuId: 'NVIDIA L40S',
        pricePerHour: 0.86,
        requestName: REQUESTED,
        answeredStatus,
      });

    it.each<[string, number | null, string, ActionRecord, string]>([
      [
        'never answered, on the volume',
        null,
        OUR_VOLUME,
        wakeAction({
          action: 'Create',
          podId: 'new1',
          gpuId: 'NVIDIA L40S',
          pricePerHour: 0.86,
          httpStatus: 0,
          ok: true,
          detail: 'reconciled: an interrupted create placed this pod',
        }),
        `reconciled create ${REQUESTED}: it placed pod new1`,
      ],
      [
        'answered 502 (in doubt), off the volume',
        502,
        'vol-other',
        wakeAction({
          action: 'Create',
          podId: 'new1',
          gpuId: 'NVIDIA L40S',
          pricePerHour: 0.86,
          httpStatus: 502,
          ok: true,
          detail: 'reconciled: a create in doubt placed this pod off the volume',
        }),
        `reconciled create ${REQUESTED}: it placed pod new1 (not on the volume)`,
      ],
    ])(
      '%s: one accepted Create row for the placed pod, its intent closed',
      async (_case, status, volume, row, line) => {
        const { h, stillOpen } = await reconcile([placed('new1', volume)], create(status));

        expect(h.actions.entries).toEqual([row]);
        expect(h.logs.messages('info')).toEqual([line]);
        expect(stillOpen).toEqual([]);
      },
    );

    it.each<[string, readonly ListedPod[], BillableIntent]>([
      ['its requested name is listed nowhere', [listedPod('p9', OUR_VOLUME)], create(null)],
      // A pod listed without a name must not pass for the create that never named one.
      [
        'it has no requested name',
        [placed('p9', OUR_VOLUME, { name: null })],
        { ...create(null), requestName: null },
      ],
    ])('records nothing and leaves the create in doubt when %s', async (_case, pods, open) => {
      const { h, stillOpen } = await reconcile(pods, open);

      expect(h.actions.entries).toEqual([]);
      expect(h.logs.lines).toEqual([]);
      expect(stillOpen).toEqual(['c1']);
    });
  });

  describe('a start or terminate interrupted before its answer', () => {
    it.each<[string, readonly ListedPod[], Partial<BillableIntent>, string, string]>([
      [
        'its pod listed EXITED',
        [{ ...listedPod('p1', OUR_VOLUME), status: 'EXITED' }],
        { action: 'Terminate', podId: 'p1' },
        'EXITED',
        'reconciled Terminate of pod p1 interrupted before its answer (now EXITED)',
      ],
      [
        'its pod not listed',
        [listedPod('p2', OUR_VOLUME)],
        { action: 'Start', podId: 'p1' },
        'not listed',
        'reconciled Start of pod p1 interrupted before its answer (now not listed)',
      ],
      [
        'its pod listed without a status',
        [{ ...listedPod('p1', OUR_VOLUME), status: null }],
        { action: 'Start', podId: 'p1' },
        'listed without a status',
        'reconciled Start of pod p1 interrupted before its answer (now listed without a status)',
      ],
      [
        'no pod id at all',
        [listedPod('p1', OUR_VOLUME)],
        { action: 'Terminate', podId: null },
        'not listed',
        'reconciled Terminate of pod - interrupted before its answer (now not listed)',
      ],
    ])(
      'with %s: a refused row with HTTP 0 saying "0 or 1 write" and where the pod is now',
      async (_case, pods, patch, now, line) => {
        const open = intent('i1', { gpuId: 'NVIDIA A40', pricePerHour: 0.4, ...patch });
        const { h, stillOpen } = await reconcile(pods, open);

        expect(h.actions.entries).toEqual([
          wakeAction({
            action: patch.action ?? 'Terminate',
            podId: patch.podId ?? null,
            gpuId: 'NVIDIA A40',
            pricePerHour: 0.4,
            httpStatus: 0,
            ok: false,
            detail: `${INTERRUPTED_DETAIL}; the pod is now ${now}`,
          }),
        ]);
        expect(h.logs.messages('warn')).toEqual([line]);
        expect(stillOpen).toEqual([]);
      },
    );
  });

  it('with no open intent it records nothing and reads nothing more', async () => {
    const { h, stillOpen } = await reconcile([listedPod('p1', OUR_VOLUME)]);

    expect(h.runpod.calls).toEqual(['list']);
    expect(h.actions.entries).toEqual([]);
    expect(stillOpen).toEqual([]);
  });
});
