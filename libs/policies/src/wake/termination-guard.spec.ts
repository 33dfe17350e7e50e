import fc from 'fast-check';
import { POD_STATUSES, type PodObservation, type PodStatus } from '../domain/pod';
import { judgeTermination, type TerminationRefusal, type TerminationRequest } from './termination-guard';

const running = (podId: string, gpuCount = 1): PodObservation => ({
  kind: 'found',
  podId,
  status: 'Running',
  gpuCount,
});

const allowed: TerminationRequest = {
  staleId: 'stale-1',
  staleVolumeIds: ['bjn7d94ej9'],
  ourVolumeId: 'bjn7d94ej9',
  replacement: running('fresh-2'),
};

describe(judgeTermination.name, () => {
  it('terminates a stale pod listed on our volume once a different replacement is observed Running with a GPU', () => {
    expect(judgeTermination(allowed)).toEqual({ allowed: true });
  });

  it('terminates a stale pod that mounts our volume among others', () => {
    expect(judgeTermination({ ...allowed, staleVolumeIds: ['other', 'bjn7d94ej9'] })).toEqual({
      allowed: true,
    });
  });

  it.each<[string, Partial<TerminationRequest>, TerminationRefusal]>([
    ['an empty stale id', { staleId: '' }, 'BlankPodId'],
    ['a whitespace stale id', { staleId: ' \t' }, 'BlankPodId'],
    ['an empty replacement id', { replacement: running('') }, 'BlankPodId'],
    ['a whitespace replacement id', { replacement: running('  ') }, 'BlankPodId'],
    [
      'both ids blank (they would "differ" by nothing)',
      { staleId: '', replacement: running(' ') },
      'BlankPodId',
    ],
    ['the replacement itself', { staleId: 'fresh-2' }, 'SamePod'],
    ['the replacement itself, padded', { staleId: ' fresh-2 ' }, 'SamePod'],
    ['a pod listed on another volume', { staleVolumeIds: ['other-volume'] }, 'NotOurVolume'],
    ['a pod listed with no volume', { staleVolumeIds: [] }, 'NotOurVolume'],
    ['a pod with a blank volume', { staleVolumeIds: [''] }, 'NotOurVolume'],
    [
      'a volume differing only in case (exact match only)',
      { staleVolumeIds: ['BJN7D94EJ9'] },
      'NotOurVolume',
    ],
    [
      'a volume differing only in padding (exact match only)',
      { staleVolumeIds: [' bjn7d94ej9'] },
      'NotOurVolume',
    ],
    [
      'any pod when our volume is blank, even a blank match',
      { staleVolumeIds: [''], ourVolumeId: '' },
      'NotOurVolume',
    ],
    [
      'any pod when our volume is whitespace, even an equal match',
      { staleVolumeIds: ['  '], ourVolumeId: '  ' },
      'NotOurVolume',
    ],
    [
      'while the replacement runs without a GPU',
      { replacement: running('fresh-2', 0) },
      'ReplacementNotRunning',
    ],
    [
      'while the replacement reads as not found',
      { replacement: { kind: 'not-found', podId: 'fresh-2' } },
      'ReplacementNotRunning',
    ],
    [
      'while the replacement is unreadable (a blip is not Running)',
      { replacement: { kind: 'unreadable', podId: 'fresh-2', reason: 'http 502' } },
      'ReplacementNotRunning',
    ],
  ])('refuses %s', (_case, change, refusal) => {
    const request = { ...allowed, ...change };
    expect(judgeTermination(request)).toEqual({ allowed: false, refusal });
  });

  it.each(POD_STATUSES.filter((status) => status !== 'Running'))(
    'refuses while the replacement is observed %s (only a Running replacement frees the stale pod)',
    (status: PodStatus) => {
      const request = {
        ...allowed,
        replacement: { kind: 'found', podId: 'fresh-2', status, gpuCount: 1 } as const,
      };
      expect(judgeTermination(request)).toEqual({ allowed: false, refusal: 'ReplacementNotRunning' });
    },
  );

  it('names the first failed check: blank id before same pod, volume and status', () => {
    const exited: PodObservation = { kind: 'found', podId: 'stale-1', status: 'Exited', gpuCount: 0 };
    expect(
      judgeTermination({
        staleId: ' ',
        staleVolumeIds: ['x'],
        ourVolumeId: 'y',
        replacement: { ...exited, podId: ' ' },
      }),
    ).toEqual({ allowed: false, refusal: 'BlankPodId' });
    expect(judgeTermination({ ...allowed, staleVolumeIds: ['x'], replacement: exited })).toEqual({
      allowed: false,
      refusal: 'SamePod',
    });
    expect(
      judgeTermination({ ...allowed, staleVolumeIds: ['x'], replacement: { ...exited, podId: 'fresh-2' } }),
    ).toEqual({ allowed: false, refusal: 'NotOurVolume' });
  });

  it('never terminates unless the replacement serves, the ids differ and our volume is listed exactly', () => {
    const id = fc.constantFrom('', ' ', 'a', ' a', 'a ', 'b', 'A');
    const volume = fc.constantFrom('', ' ', 'v1', 'V1', ' v1', 'v2');
    const replacement = fc.oneof(
      fc.record({
        kind: fc.constant('found' as const),
        status: fc.constantFrom(...POD_STATUSES),
        gpuCount: fc.constantFrom(0, 1, 2),
      }),
      fc.constant({ kind: 'not-found' as const }),
      fc.constant({ kind: 'unreadable' as const, reason: 'x' }),
    );
    fc.assert(
      fc.property(
        id,
        id,
        fc.array(volume, { maxLength: 3 }),
        volume,
        replacement,
        (s, r, staleVolumes, ov, seen) => {
          const observed = { ...seen, podId: r } as PodObservation;
          const request = {
            staleId: s,
            staleVolumeIds: staleVolumes,
            ourVolumeId: ov,
            replacement: observed,
          };
          const permitted = judgeTermination(request).allowed;
          const safe =
            observed.kind === 'found' &&
            observed.status === 'Running' &&
            observed.gpuCount >= 1 &&
            s.trim() !== '' &&
            r.trim() !== '' &&
            s.trim() !== r.trim() &&
            ov.trim() !== '' &&
            staleVolumes.includes(ov);
          expect(permitted).toBe(safe);
          expect(judgeTermination(request).allowed).toBe(permitted);
        },
      ),
    );
  });
});
