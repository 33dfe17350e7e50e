import {
  OUR_VOLUME,
  actionAccepted,
  actionRefused,
  createRefused,
  created,
  found,
  placedOn,
  listedPod,
  unreadablePod,
  volumeWith,
} from '@podwarden/testing';
import { RANKED_CATALOG, L40S } from '../testing/gpu-catalogs';
import { scriptedRunPod, wakeRunHarness } from '../testing/wake-run-harness';
import { wakeAction, replacingGpulessPod, UNTIL_REPLACEMENT_CREATE } from '../testing/wake-scenarios';
import { terminateStalePods } from './terminate-stale-pods';

/** Step 4: stale pods go only through the termination guard, judged on what was just observed. */
describe(terminateStalePods.name, () => {
  describe('through the whole run', () => {
    it('a termination RunPod refuses is recorded ok:false and the wake is still Created', async () => {
      const runpod = replacingGpulessPod()
        .onObserve('new1', found('new1', 'Running', 1), found('new1', 'Running', 1))
        .onTerminate(actionRefused(409, 'pod belongs to a cluster'));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(result).toMatchObject({ outcome: 'Created', podId: 'new1', failureKind: null });
      expect(sut.actions.entries.at(-1)).toEqual(
        wakeAction({
          action: 'Terminate',
          podId: 'p1',
          gpuId: null,
          pricePerHour: null,
          httpStatus: 409,
          ok: false,
          detail: 'pod belongs to a cluster',
        }),
      );
      expect(sut.logs.messages('warn')).toEqual(['terminate of stale pod p1 refused (HTTP 409); kept']);
    });

    it('a termination refused next to an already running pod leaves the wake AlreadyRunning', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['stale', 'fresh']))
        .onObserve('stale', found('stale', 'Exited'))
        .onObserve('fresh', found('fresh', 'Running', 1), found('fresh', 'Running', 1))
        .onTerminate(actionRefused(500));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(result).toMatchObject({ outcome: 'AlreadyRunning', podId: 'fresh' });
      expect(sut.actions.summary).toEqual(['Terminate stale refused']);
    });

    it('the new pod leaves RUNNING between its last poll and the terminate: the guard refuses, no call, the stale pod is kept and the wake says so', async () => {
      const runpod = replacingGpulessPod().onObserve(
        'new1',
        found('new1', 'Running', 1),
        found('new1', 'Exited'),
      );
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual([...UNTIL_REPLACEMENT_CREATE, 'observe new1', 'observe new1']);
      expect(runpod.billableCalls).toEqual([`create ${L40S}`]);
      expect(result).toMatchObject({ outcome: 'Created', podId: 'new1' });
      expect(result.message).toBe(
        `created pod new1 on ${L40S} at 0.86 USD/h; termination guard kept stale pod(s) p1 (ReplacementNotRunning)`,
      );
      expect(sut.logs.messages('warn')).toEqual([
        'termination guard kept stale pod p1 (ReplacementNotRunning)',
      ]);
      expect(sut.logs.find('termination guard kept')[0]).toMatchObject({
        staleId: 'p1',
        servingId: 'new1',
        refusal: 'ReplacementNotRunning',
        replacement: found('new1', 'Exited'),
      });
      // No call was issued, so the billable-action log has nothing to say about it.
      expect(sut.actions.summary).toEqual(['Create new1 ok']);
    });

    it('the serving pod stops serving after the round that chose it: its stale sibling is kept (AlreadyRunning, no terminate)', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['stale', 'fresh']))
        .onObserve('stale', found('stale', 'Exited'))
        .onObserve('fresh', found('fresh', 'Running', 1), found('fresh', 'Starting'));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual(['list', 'observe stale', 'observe fresh', 'observe fresh']);
      expect(result).toMatchObject({ outcome: 'AlreadyRunning', podId: 'fresh' });
      expect(result.message).toBe(
        'pod fresh is already running; termination guard kept stale pod(s) stale (ReplacementNotRunning)',
      );
      expect(sut.actions.entries).toEqual([]);
    });

    it('every stale pod kept is named, each with its own refusal', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['fresh', 's1', 's2']))
        .onObserve(
          'fresh',
          found('fresh', 'Running', 1),
          found('fresh', 'Starting'),
          found('fresh', 'Starting'),
        )
        .onObserve('s1', found('s1', 'Exited'))
        .onObserve('s2', found('s2', 'Exited'));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(result.message).toBe(
        'pod fresh is already running; termination guard kept stale pod(s) s1 (ReplacementNotRunning), s2 (ReplacementNotRunning)',
      );
    });

    it('an unreadable replacement at the moment of the terminate is not Running: the stale pod is kept', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['a', 'b']))
        .onObserve('a', found('a', 'Running', 1), unreadablePod('a'))
        .onObserve('b', found('b', 'Running', 1));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.billableCalls).toEqual([]);
      expect(result.message).toMatch(/kept stale pod\(s\) b \(ReplacementNotRunning\)$/);
    });

    it('a stale pod last listed on another volume is kept (NotOurVolume), though the first listing put it on ours', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']), volumeWith(['new1'], [listedPod('p1', 'vol-other')]))
        .onObserve('p1', found('p1', 'Running', 0))
        .onCatalog(RANKED_CATALOG)
        .onCreate(createRefused(503, 1))
        .onObserve('new1', found('new1', 'Running', 1, placedOn(L40S)), found('new1', 'Running', 1));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual([...UNTIL_REPLACEMENT_CREATE, 'list', 'observe new1', 'observe new1']);
      expect(runpod.billableCalls).toEqual([`create ${L40S}`]);
      expect(result).toMatchObject({ outcome: 'Created', podId: 'new1' });
      expect(result.message).toMatch(/; termination guard kept stale pod\(s\) p1 \(NotOurVolume\)$/);
      expect(sut.logs.messages('warn')).toContain('termination guard kept stale pod p1 (NotOurVolume)');
    });

    it('each terminate has its own fresh read: a replacement that stops after the first terminate keeps the second stale pod', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['s1', 's2']))
        .onObserve('s1', found('s1', 'Exited'), found('s1', 'Exited'))
        .onObserve('s2', found('s2', 'Running', 0), found('s2', 'Running', 0))
        .onStart(actionAccepted())
        .onCatalog(RANKED_CATALOG)
        .onCreate(created('new1'))
        .onObserve('new1', found('new1', 'Running', 1), found('new1', 'Running', 1), found('new1', 'Exited'))
        .onTerminate(actionAccepted());
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      // The poll that saw Running, then one read before each terminate.
      expect(runpod.calls.slice(-4)).toEqual([
        'observe new1',
        'observe new1',
        'terminate s1',
        'observe new1',
      ]);
      expect(runpod.billableCalls).toEqual(['start s1', `create ${L40S}`, 'terminate s1']);
      expect(result.message).toMatch(/kept stale pod\(s\) s2 \(ReplacementNotRunning\)$/);
    });
  });

  describe('on its own', () => {
    it('a stale id the wake never saw listed is kept: its volume is unknown, so it is not ours', async () => {
      const runpod = scriptedRunPod().onObserve('new1', found('new1', 'Running', 1));
      const sut = wakeRunHarness(runpod);

      const kept = await terminateStalePods(sut.context(), 'new1', ['ghost']);

      expect(kept).toEqual([{ podId: 'ghost', refusal: 'NotOurVolume' }]);
      expect(runpod.calls).toEqual(['observe new1']);
    });

    it('terminates a listed stale pod once the replacement reads Running, and records the call', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['old', 'new1']))
        .onObserve('new1', found('new1', 'Running', 1))
        .onTerminate(actionAccepted(204));
      const sut = wakeRunHarness(runpod);
      const ctx = sut.context();
      await ctx.runpod.listPods().then((list) => ctx.state.noteListing(list));

      const kept = await terminateStalePods(ctx, 'new1', ['old']);

      expect(kept).toEqual([]);
      expect(runpod.calls).toEqual(['list', 'observe new1', 'terminate old']);
      expect(sut.actions.summary).toEqual(['Terminate old ok']);
      expect(sut.logs.messages('info')).toEqual(['terminated stale pod old']);
      expect(ctx.state.volumesOf('old')).toEqual([OUR_VOLUME]);
    });
  });
});
