import type { ListedPod } from '../domain/pod';
import { findOrphans, type OrphanSettings } from './orphan-sweep';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const MINUTE = 60_000;
const SETTINGS: OrphanSettings = {
  prefix: 'podwarden-',
  graceMs: 10 * MINUTE,
  pods: [
    { name: 'qwen', volumeId: 'vol-a' },
    { name: 'qwen-big', volumeId: 'vol-b' },
  ],
};

function pod(changes: Partial<ListedPod>): ListedPod {
  return {
    id: 'p1',
    name: 'podwarden-qwen-20261201T100000Z',
    status: 'RUNNING',
    volumeIds: [],
    costPerHr: 0.5,
    gpuId: 'g',
    createdAt: new Date(NOW - 11 * MINUTE).toISOString(),
    ...changes,
  };
}

function ids(pods: ListedPod[], settings: OrphanSettings = SETTINGS): string[] {
  return findOrphans(pods, settings, NOW).map((o) => o.pod.id);
}

describe(findOrphans.name, () => {
  it.each<[string, Partial<ListedPod>, boolean]>([
    ['prefixed, on no volume, past the grace: an orphan', {}, true],
    ['prefixed, on a volume no longer configured: an orphan', { volumeIds: ['vol-gone'] }, true],
    ['stopped (EXITED) orphans are terminated too (their disk still bills)', { status: 'EXITED' }, true],
    ['on a configured volume: not an orphan', { volumeIds: ['vol-a'] }, false],
    ['on an unknown and a configured volume: not an orphan', { volumeIds: ['vol-x', 'vol-b'] }, false],
    ['without our prefix: never touched', { name: 'someone-elses-pod' }, false],
    ['the prefix must lead the name', { name: 'my-podwarden-qwen' }, false],
    ['no name: never touched', { name: null }, false],
    [
      'younger than the grace: may be a create still attaching',
      { createdAt: new Date(NOW - 9 * MINUTE).toISOString() },
      false,
    ],
    ['exactly the grace old: an orphan', { createdAt: new Date(NOW - 10 * MINUTE).toISOString() }, true],
    ['no creation time: its age is unknown, left alone', { createdAt: null }, false],
    ['an unparseable creation time: left alone', { createdAt: 'yesterday' }, false],
    ['already TERMINATED: nothing to do', { status: 'TERMINATED' }, false],
    ['terminated, in any case: nothing to do', { status: 'terminated' }, false],
    ['no listed status: still an orphan', { status: null }, true],
  ])('%s', (_rule, changes, orphan) => {
    expect(ids([pod(changes)])).toEqual(orphan ? ['p1'] : []);
  });

  it('decimal grace minutes: 0.5 min is 30 s', () => {
    const settings = { ...SETTINGS, graceMs: 0.5 * MINUTE };
    const at = (s: number): ListedPod =>
      pod({ id: `p${s}`, createdAt: new Date(NOW - s * 1000).toISOString() });
    expect(ids([at(29), at(30), at(31)], settings)).toEqual(['p30', 'p31']);
  });

  it('a grace of 0 takes every prefixed pod off the configured volumes at once', () => {
    expect(ids([pod({ createdAt: new Date(NOW).toISOString() })], { ...SETTINGS, graceMs: 0 })).toEqual([
      'p1',
    ]);
  });

  it('an empty prefix never matches anything', () => {
    expect(ids([pod({})], { ...SETTINGS, prefix: '' })).toEqual([]);
  });

  it('reports the age and records under the configured pod the name was made for, else the first', () => {
    const found = findOrphans(
      [
        pod({ id: 'a', name: 'podwarden-QWEN-BIG-20261201T100000Z' }),
        pod({ id: 'b', name: 'podwarden-qwen-20261201T100000Z' }),
        pod({ id: 'c', name: 'podwarden-llama-20261201T100000Z' }),
      ],
      SETTINGS,
      NOW,
    );
    expect(found.map((o) => [o.pod.id, o.recordUnder, o.ageMs])).toEqual([
      ['a', 'qwen-big', 11 * MINUTE],
      ['b', 'qwen', 11 * MINUTE],
      ['c', 'qwen', 11 * MINUTE],
    ]);
  });

  it.each(['', '  '])('a blank configured volume id %j protects nothing', (blank) => {
    const settings = { ...SETTINGS, pods: [{ name: 'qwen', volumeId: blank }] };
    expect(ids([pod({ volumeIds: [blank] })], settings)).toEqual(['p1']);
  });

  it('no configured pods: nothing is ours to terminate', () => {
    expect(ids([pod({})], { ...SETTINGS, pods: [] })).toEqual([]);
  });
});
