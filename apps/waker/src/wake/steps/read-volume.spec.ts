import { emptyVolume, listedPod, unreadableList, volumeWith } from '@podwarden/testing';
import { scriptedRunPod, wakeRunHarness } from '../testing/wake-run-harness';
import { readVolume } from './read-volume';

describe(readVolume.name, () => {
  it('finds every pod on our volume in one list call and keeps each listed pod with its volumes', async () => {
    const runpod = scriptedRunPod().onList(volumeWith(['b', 'a'], [listedPod('x', 'vol-other')]));
    const ctx = wakeRunHarness(runpod).context();

    expect(await readVolume(ctx)).toEqual({ kind: 'found', podIds: ['b', 'a'] });
    expect(runpod.calls).toEqual(['list']);
    expect(ctx.state.volumesOf('x')).toEqual(['vol-other']);
  });

  it('a newer listing replaces what an older one said of a pod, and keeps pods it no longer lists', async () => {
    const runpod = scriptedRunPod().onList(
      volumeWith(['p1', 'p2']),
      emptyVolume([listedPod('p1', 'vol-other')]),
    );
    const ctx = wakeRunHarness(runpod).context();

    await readVolume(ctx);
    expect(await readVolume(ctx)).toEqual({ kind: 'not-found' });

    expect(ctx.state.volumesOf('p1')).toEqual(['vol-other']);
    expect(ctx.state.volumesOf('p2')).toEqual(['vol-ours']);
  });

  it('an unreadable list stays unreadable (never "no pod") and teaches the run nothing', async () => {
    const runpod = scriptedRunPod().onList(unreadableList('http 502'));
    const ctx = wakeRunHarness(runpod).context();

    expect(await readVolume(ctx)).toEqual({ kind: 'unreadable', reason: 'http 502' });
    expect(ctx.state.volumesOf('p1')).toEqual([]);
  });
});
