import type { ListedPod } from '@podwarden/policies';
import { actionAccepted, actionRefused, listedPod, unreadableList } from '@podwarden/testing';
import { WakeRunState } from './wake-run-state';

const pod = (id: string, changes: Partial<ListedPod> = {}): ListedPod => ({
  ...listedPod(id, 'vol-a'),
  ...changes,
});

describe(WakeRunState.name, () => {
  describe('declined: Refused only while nothing billable went out', () => {
    it('a fresh run declines as a refusal with its diagnostics', () => {
      const state = new WakeRunState();
      state.candidatesConsidered = 3;

      expect(state.declined('no')).toEqual({
        outcome: 'Failed',
        failureKind: 'refused',
        podId: null,
        gpuId: null,
        pricePerHour: null,
        message: 'no',
        candidatesConsidered: 3,
        lastProviderStatus: null,
      });
    });

    // Only a 4xx refusal surely placed nothing; a 2xx placed a pod, a 5xx or a transport failure may have.
    it.each<[number, 'refused' | 'provider']>([
      [0, 'provider'],
      [201, 'provider'],
      [399, 'provider'],
      [400, 'refused'],
      [429, 'refused'],
      [499, 'refused'],
      [500, 'provider'],
      [503, 'provider'],
    ])('after a create answered %i: %s', (status, failureKind) => {
      const state = new WakeRunState();
      state.noteCreate(status);

      expect(state.declined('no')).toMatchObject({ failureKind, lastProviderStatus: status });
    });

    it('after an accepted start: a provider failure, and the start is ours', () => {
      const state = new WakeRunState();
      state.noteStart('p1', actionAccepted());

      expect(state.declined('no')).toMatchObject({ failureKind: 'provider', lastProviderStatus: null });
      expect([state.wasStartAttempted('p1'), state.wasStartedByUs('p1')]).toEqual([true, true]);
    });

    it("after a refused start: still a refusal, with the start's status; attempted but not ours", () => {
      const state = new WakeRunState();
      state.noteStart('p1', actionRefused(409));

      expect(state.declined('no')).toMatchObject({ failureKind: 'refused', lastProviderStatus: 409 });
      expect([state.wasStartAttempted('p1'), state.wasStartedByUs('p1')]).toEqual([true, false]);
      expect([state.wasStartAttempted('p2'), state.wasStartedByUs('p2')]).toEqual([false, false]);
    });
  });

  describe('the listing it keeps', () => {
    it('keeps the newest entry of every pod listed, and ignores an unreadable list', () => {
      const state = new WakeRunState();
      state.noteListing({
        kind: 'listed',
        pods: [pod('p1', { costPerHr: 0.5 }), pod('p2', { name: 'want' })],
      });
      state.noteListing({ kind: 'listed', pods: [pod('p1', { costPerHr: 0.7, volumeIds: ['vol-b'] })] });
      state.noteListing(unreadableList());

      expect(state.listedPod('p1')).toMatchObject({ costPerHr: 0.7 });
      expect(state.listedPrice('p1')).toBe(0.7);
      expect(state.volumesOf('p1')).toEqual(['vol-b']);
      expect(state.volumesOf('p2')).toEqual(['vol-a']);
      expect(state.listedPrice('p2')).toBeNull();
      expect(state.listedByName('want')?.id).toBe('p2');
      expect(state.listedByName('pod-p1')?.id).toBe('p1');
    });

    it('knows nothing of a pod it never saw listed', () => {
      const state = new WakeRunState();
      state.noteListing({ kind: 'listed', pods: [pod('p1')] });

      expect(state.listedPod('p9')).toBeUndefined();
      expect(state.listedByName('nobody')).toBeUndefined();
      expect(state.volumesOf('p9')).toEqual([]);
      expect(state.listedPrice('p9')).toBeNull();
    });
  });
});
