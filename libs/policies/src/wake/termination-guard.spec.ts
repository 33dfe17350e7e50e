import fc from 'fast-check';
import { POD_STATUSES, type PodStatus } from '../domain/pod';
import {
  judgeTermination,
  mayTerminate,
  type TerminationRefusal,
  type TerminationRequest,
} from './termination-guard';

const allowed: TerminationRequest = {
  staleId: 'stale-1',
  replacementId: 'fresh-2',
  staleVolumeId: 'bjn7d94ej9',
  ourVolumeId: 'bjn7d94ej9',
  replacementStatus: 'Running',
};

describe('mayTerminate', () => {
  it('terminates a stale pod on our volume once a different replacement is Running', () => {
    expect(mayTerminate(allowed)).toBe(true);
    expect(judgeTermination(allowed)).toEqual({ allowed: true });
  });

  it.each<[string, Partial<TerminationRequest>, TerminationRefusal]>([
    ['an empty stale id', { staleId: '' }, 'BlankPodId'],
    ['a whitespace stale id', { staleId: ' \t' }, 'BlankPodId'],
    ['an empty replacement id', { replacementId: '' }, 'BlankPodId'],
    ['a whitespace replacement id', { replacementId: '  ' }, 'BlankPodId'],
    ['both ids blank (they would "differ" by nothing)', { staleId: '', replacementId: ' ' }, 'BlankPodId'],
    ['the replacement itself', { staleId: 'fresh-2', replacementId: 'fresh-2' }, 'SamePod'],
    ['the replacement itself, padded', { staleId: ' fresh-2 ', replacementId: 'fresh-2' }, 'SamePod'],
    ['a pod on another volume', { staleVolumeId: 'other-volume' }, 'NotOurVolume'],
    ['a pod with no volume', { staleVolumeId: '' }, 'NotOurVolume'],
    ['a volume differing only in case (exact match only)', { staleVolumeId: 'BJN7D94EJ9' }, 'NotOurVolume'],
    [
      'a volume differing only in padding (exact match only)',
      { staleVolumeId: ' bjn7d94ej9' },
      'NotOurVolume',
    ],
    [
      'any pod when our volume is blank, even a blank match',
      { staleVolumeId: '', ourVolumeId: '' },
      'NotOurVolume',
    ],
    [
      'any pod when our volume is whitespace, even an equal match',
      { staleVolumeId: '  ', ourVolumeId: '  ' },
      'NotOurVolume',
    ],
  ])('refuses %s', (_case, change, refusal) => {
    const request = { ...allowed, ...change };
    expect(mayTerminate(request)).toBe(false);
    expect(judgeTermination(request)).toEqual({ allowed: false, refusal });
  });

  it.each(POD_STATUSES.filter((status) => status !== 'Running'))(
    'refuses while the replacement is %s (only a Running replacement frees the stale pod)',
    (replacementStatus: PodStatus) => {
      const request = { ...allowed, replacementStatus };
      expect(mayTerminate(request)).toBe(false);
      expect(judgeTermination(request)).toEqual({ allowed: false, refusal: 'ReplacementNotRunning' });
    },
  );

  it('names the first failed check: blank id before same pod, volume and status', () => {
    expect(
      judgeTermination({
        staleId: ' ',
        replacementId: ' ',
        staleVolumeId: 'x',
        ourVolumeId: 'y',
        replacementStatus: 'Exited',
      }),
    ).toEqual({ allowed: false, refusal: 'BlankPodId' });
    expect(
      judgeTermination({
        ...allowed,
        replacementId: 'stale-1',
        staleVolumeId: 'x',
        replacementStatus: 'Exited',
      }),
    ).toEqual({ allowed: false, refusal: 'SamePod' });
    expect(judgeTermination({ ...allowed, staleVolumeId: 'x', replacementStatus: 'Exited' })).toEqual({
      allowed: false,
      refusal: 'NotOurVolume',
    });
  });

  it('never terminates unless the replacement is Running, the ids differ and the volume is exactly ours', () => {
    const id = fc.constantFrom('', ' ', 'a', ' a', 'a ', 'b', 'A');
    const volume = fc.constantFrom('', ' ', 'v1', 'V1', ' v1', 'v2');
    fc.assert(
      fc.property(id, id, volume, volume, fc.constantFrom(...POD_STATUSES), (s, r, sv, ov, status) => {
        const request = {
          staleId: s,
          replacementId: r,
          staleVolumeId: sv,
          ourVolumeId: ov,
          replacementStatus: status,
        };
        const permitted = mayTerminate(request);
        const safe =
          status === 'Running' &&
          s.trim() !== '' &&
          r.trim() !== '' &&
          s.trim() !== r.trim() &&
          ov.trim() !== '' &&
          sv === ov;
        expect(permitted).toBe(safe);
        expect(judgeTermination(request).allowed).toBe(permitted);
      }),
    );
  });
});
