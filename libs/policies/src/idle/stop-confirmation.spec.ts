import type { PodList } from '../domain/pod';
import {
  confirmedAtOnce,
  decideStopConfirmation,
  sightingOf,
  stopConfirmedOf,
  type PendingStop,
  type StopSighting,
} from './stop-confirmation';

const STOPPED_AT = 1_000;
const NOW = 9_000;
const SETTINGS = { ticks: 3, maxRestops: 2 };

function pending(patch: Partial<PendingStop> = {}): PendingStop {
  return {
    podId: 'p1',
    trigger: 'idle',
    stoppedAt: STOPPED_AT,
    ticksWaited: 0,
    restops: 0,
    confirmedAt: null,
    ...patch,
  };
}

describe('decideStopConfirmation', () => {
  it.each<[string, Partial<PendingStop>, StopSighting, number | null, string, Partial<PendingStop> | null]>([
    ['seen EXITED: confirmed now', {}, 'down', null, 'confirmed', { confirmedAt: NOW }],
    [
      'gone from the list: confirmed now',
      { ticksWaited: 2 },
      'gone',
      null,
      'confirmed',
      { confirmedAt: NOW, ticksWaited: 2 },
    ],
    ['first tick still up: waiting 1', {}, 'up', null, 'waiting', { ticksWaited: 1 }],
    ['second tick still up: waiting 2', { ticksWaited: 1 }, 'up', null, 'waiting', { ticksWaited: 2 }],
    [
      'third tick still up: re-stop 1, the count starts again',
      { ticksWaited: 2 },
      'up',
      null,
      'restop',
      { restops: 1, ticksWaited: 0, stoppedAt: NOW },
    ],
    [
      'up past the bound after one re-stop: re-stop 2',
      { ticksWaited: 2, restops: 1 },
      'up',
      null,
      'restop',
      { restops: 2, ticksWaited: 0, stoppedAt: NOW },
    ],
    [
      'up past the bound with every re-stop spent: unconfirmed',
      { ticksWaited: 2, restops: 2 },
      'up',
      null,
      'unconfirmed',
      { ticksWaited: 3, restops: 2 },
    ],
    [
      'unconfirmed keeps counting',
      { ticksWaited: 7, restops: 2 },
      'up',
      null,
      'unconfirmed',
      { ticksWaited: 8, restops: 2 },
    ],
    ['unreadable list: nothing counted', { ticksWaited: 2 }, 'unseen', null, 'blind', { ticksWaited: 2 }],
    [
      'a wake started the volume after the stop: forgotten',
      { ticksWaited: 2 },
      'up',
      STOPPED_AT + 1,
      'forget',
      null,
    ],
    ['a wake at the very time of the stop: forgotten', {}, 'up', STOPPED_AT, 'forget', null],
    [
      'a wake before the stop does not excuse it',
      { ticksWaited: 2 },
      'up',
      STOPPED_AT - 1,
      'restop',
      { restops: 1, ticksWaited: 0, stoppedAt: NOW },
    ],
    [
      'confirmed earlier, still down: stays confirmed',
      { confirmedAt: 5 },
      'down',
      null,
      'confirmed',
      { confirmedAt: 5 },
    ],
    [
      'confirmed earlier, list unreadable: stays confirmed',
      { confirmedAt: 5 },
      'unseen',
      null,
      'confirmed',
      { confirmedAt: 5 },
    ],
    ['confirmed earlier, up again (a new run): forgotten', { confirmedAt: 5 }, 'up', null, 'forget', null],
  ])('%s', (_case, before, sighting, restartedAt, kind, after) => {
    const verdict = decideStopConfirmation(pending(before), sighting, restartedAt, SETTINGS, NOW);
    expect(verdict.kind).toBe(kind);
    expect(verdict.next).toEqual(after === null ? null : pending({ ...before, ...after }));
  });

  it('with one tick allowed, the first tick that sees the pod up re-stops it', () => {
    const verdict = decideStopConfirmation(pending(), 'up', null, { ticks: 1, maxRestops: 1 }, NOW);
    expect(verdict).toMatchObject({ kind: 'restop', attempt: 1 });
  });

  it('with no re-stops allowed, a pod up past the bound is only reported', () => {
    const verdict = decideStopConfirmation(
      pending({ ticksWaited: 2 }),
      'up',
      null,
      { ticks: 3, maxRestops: 0 },
      NOW,
    );
    expect(verdict.kind).toBe('unconfirmed');
  });

  it('names the attempt of each re-stop', () => {
    const verdict = decideStopConfirmation(
      pending({ ticksWaited: 2, restops: 1 }),
      'up',
      null,
      SETTINGS,
      NOW,
    );
    expect(verdict).toMatchObject({ kind: 'restop', attempt: 2 });
  });
});

describe('sightingOf', () => {
  const listed = (status: string | null): PodList => ({
    kind: 'listed',
    pods: [{ id: 'p1', name: null, status, volumeIds: [], costPerHr: null, gpuId: null, createdAt: null }],
  });

  it.each<[string, PodList, StopSighting]>([
    ['EXITED', listed('EXITED'), 'down'],
    ['TERMINATED', listed('TERMINATED'), 'down'],
    ['lower-case exited', listed('exited'), 'down'],
    ['RUNNING', listed('RUNNING'), 'up'],
    ['no status (fails closed)', listed(null), 'up'],
    ['an unfamiliar status (fails closed)', listed('STOPPING'), 'up'],
    ['not in the list', { kind: 'listed', pods: [] }, 'gone'],
    [
      'not in the list, another pod up in it',
      {
        kind: 'listed',
        pods: [
          {
            id: 'p2',
            name: null,
            status: 'RUNNING',
            volumeIds: [],
            costPerHr: null,
            gpuId: null,
            createdAt: null,
          },
        ],
      },
      'gone',
    ],
    ['list unreadable', { kind: 'unreadable', reason: 'HTTP 500' }, 'unseen'],
  ])('%s ⇒ %s', (_case, list, sighting) => {
    expect(sightingOf(list, STOPPED_AT + 1, pending())).toBe(sighting);
  });

  it('a list read before the stop was sent (the tick that sent it) says nothing', () => {
    expect(sightingOf(listed('RUNNING'), STOPPED_AT, pending())).toBe('unseen');
    expect(sightingOf(listed('RUNNING'), STOPPED_AT - 1, pending())).toBe('unseen');
  });
});

describe('stopConfirmedOf (GET)', () => {
  it.each<[string, PendingStop[], boolean | null]>([
    ['no stop followed', [], null],
    ['one unconfirmed', [pending()], false],
    ['one confirmed', [pending({ confirmedAt: 5 })], true],
    ['one of two unconfirmed', [pending({ confirmedAt: 5 }), pending({ podId: 'p2' })], false],
    ['both confirmed', [pending({ confirmedAt: 5 }), pending({ podId: 'p2', confirmedAt: 6 })], true],
  ])('%s', (_case, entries, expected) => {
    expect(stopConfirmedOf(entries)).toBe(expected);
  });
});

describe('confirmedAtOnce (the stop route)', () => {
  it.each<[string, { called: boolean; ok: boolean }[], boolean]>([
    [
      'every pod already down, no call',
      [
        { called: false, ok: true },
        { called: false, ok: true },
      ],
      true,
    ],
    ['a running pod just stopped', [{ called: true, ok: true }], false],
    [
      'one down, one just stopped',
      [
        { called: false, ok: true },
        { called: true, ok: true },
      ],
      false,
    ],
    ['a refused stop', [{ called: true, ok: false }], false],
  ])('%s', (_case, pods, expected) => {
    expect(confirmedAtOnce(pods)).toBe(expected);
  });
});
