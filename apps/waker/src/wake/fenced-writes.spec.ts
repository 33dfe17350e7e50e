import { FenceLostError } from '@podwarden/platform';
import { actionAccepted, created, emptyVolume, found, volumeWith } from '@podwarden/testing';
import { L40S, RANKED_CATALOG } from './testing/gpu-catalogs';
import { ScriptedFence } from './testing/scripted-fence';
import { scriptedRunPod, wakeRunHarness } from './testing/wake-run-harness';

/** Every billable call is preceded by a check of the fenced gate; a lost fence means no call at all. */
describe('fenced billable calls', () => {
  it('a create is preceded by a fence check on the timeline', async () => {
    const runpod = scriptedRunPod()
      .onList(emptyVolume())
      .onCatalog(RANKED_CATALOG)
      .onCreate(created('new1'))
      .onObserve('new1', found('new1', 'Running', 1));
    const fence = new ScriptedFence(runpod);

    await wakeRunHarness(runpod).run(undefined, fence);

    const createAt = runpod.events.indexOf(`create ${L40S}`);
    expect(runpod.events[createAt - 1]).toBe('fence held');
    // Once before the intent is written, once right before the call itself.
    expect(fence.checks).toBe(2);
  });

  it.each([
    [
      'a start',
      () =>
        scriptedRunPod()
          .onList(volumeWith(['p1']))
          .onObserve('p1', found('p1', 'Exited')),
    ],
    ['a create', () => scriptedRunPod().onList(emptyVolume()).onCatalog(RANKED_CATALOG)],
  ])('a run whose fence is lost makes no RunPod write: %s is never sent', async (_, scenario) => {
    const runpod = scenario().onStart(actionAccepted()).onCreate(created('new1'));
    const fence = new ScriptedFence(runpod);
    fence.lose();

    await expect(wakeRunHarness(runpod).run(undefined, fence)).rejects.toEqual(new FenceLostError('lost'));

    expect(runpod.billableCalls).toEqual([]);
  });

  it('a stale pod is not terminated once the fence is lost after the replacement ran', async () => {
    const runpod = scriptedRunPod()
      .onList(volumeWith(['p1', 'p2']))
      .onObserve('p1', found('p1', 'Running', 1), found('p1', 'Running', 1))
      .onObserve('p2', found('p2', 'Exited'))
      .onTerminate(actionAccepted(204));
    const fence = new ScriptedFence(runpod);
    fence.lose('stopped');

    await expect(wakeRunHarness(runpod).run(undefined, fence)).rejects.toThrow('stopped by operator');

    expect(runpod.billableCalls).toEqual([]);
  });
});
