import type { ListedPod, PodObservation, PodStatus, VolumeLookup } from '../domain/pod';
import {
  afterErrorStop,
  afterErrorTerminate,
  errorActionsDue,
  errorEvidence,
  errorGraceMs,
  isListedOnVolume,
  isStopRefusal,
  nextErrorClocks,
  readErrorClocks,
  type DueErrorAction,
  type ErrorClock,
  type ErrorClocks,
  type ErrorEvidence,
  type ErrorReading,
} from './error-pods';

const NOW = 10_000_000;
const GRACE = 60_000;
const FOUND: VolumeLookup = { kind: 'found', podIds: ['a', 'b'] };

function found(status: PodStatus, podId = 'a'): PodObservation {
  return { kind: 'found', podId, status, gpuCount: 0 };
}
function read(podId: string, observation: PodObservation | null, served = false): ErrorReading {
  return { podId, served, observation };
}
function listed(id: string, status: string | null, volumeIds: string[] = ['vol-1']): ListedPod {
  return { id, name: null, status, volumeIds, costPerHr: 0.49, gpuId: 'g', createdAt: null };
}
function clock(since: number, stoppedAt: number | null = null): ErrorClock {
  return { since, stoppedAt };
}

describe(errorEvidence.name, () => {
  it.each<[string, ErrorReading | undefined, ListedPod | undefined, ErrorEvidence]>([
    ['its own read says ERROR', read('a', found('Error')), listed('a', 'RUNNING'), 'error'],
    [
      'its own read names another status: not in ERROR',
      read('a', found('Exited')),
      listed('a', 'ERROR'),
      'not-error',
    ],
    ['starting again is not ERROR', read('a', found('Starting')), undefined, 'not-error'],
    ['a model that answered is not in ERROR', read('a', null, true), listed('a', 'ERROR'), 'not-error'],
    [
      'an unreadable read falls back to the list: ERROR',
      read('a', { kind: 'unreadable', podId: 'a', reason: 'x' }),
      listed('a', 'ERROR'),
      'error',
    ],
    [
      'a read of an unfamiliar status falls back to the list',
      read('a', found('Unknown')),
      listed('a', 'error'),
      'error',
    ],
    [
      'a 404 falls back to the list',
      read('a', { kind: 'not-found', podId: 'a' }),
      listed('a', 'RUNNING'),
      'not-error',
    ],
    ['no read, listed EXITED: not in ERROR', undefined, listed('a', 'EXITED'), 'not-error'],
    ['no read, listed TERMINATED', undefined, listed('a', 'TERMINATED'), 'not-error'],
    ['no read, listed PROVISIONING', undefined, listed('a', 'PROVISIONING'), 'not-error'],
    ['no read, listed STARTING', undefined, listed('a', 'STARTING'), 'not-error'],
    ['no read, an unfamiliar listed status tells nothing', undefined, listed('a', 'PAUSED'), 'unknown'],
    ['no read, no listed status tells nothing', undefined, listed('a', null), 'unknown'],
    ['neither read nor listed tells nothing', undefined, undefined, 'unknown'],
  ])('%s', (_rule, reading, entry, expected) => {
    expect(errorEvidence(reading, entry)).toBe(expected);
  });
});

describe(nextErrorClocks.name, () => {
  const errorA = [read('a', found('Error'))];
  it.each<[string, ErrorClocks, VolumeLookup, ErrorReading[], ListedPod[], ErrorClocks]>([
    ['first seen in ERROR starts the clock now', {}, FOUND, errorA, [], { a: clock(NOW) }],
    ['still in ERROR keeps when it started', { a: clock(5) }, FOUND, errorA, [], { a: clock(5) }],
    ['still in ERROR keeps an accepted stop', { a: clock(5, 9) }, FOUND, errorA, [], { a: clock(5, 9) }],
    [
      'out of ERROR drops it (a start is a new boot)',
      { a: clock(5) },
      FOUND,
      [read('a', found('Starting'))],
      [],
      {},
    ],
    [
      'stopped after an accepted stop drops it',
      { a: clock(5, 9) },
      FOUND,
      [read('a', found('Exited'))],
      [],
      {},
    ],
    ['no evidence keeps a clock', { a: clock(5) }, FOUND, [read('a', null)], [], { a: clock(5) }],
    ['no evidence starts none', {}, FOUND, [read('a', null)], [], {}],
    [
      'the list says ERROR when the read failed',
      {},
      FOUND,
      [read('a', null)],
      [listed('a', 'ERROR')],
      { a: clock(NOW) },
    ],
    [
      'each pod has its own clock',
      { b: clock(7) },
      FOUND,
      [read('a', null, true), read('b', found('Error', 'b'))],
      [],
      { b: clock(7) },
    ],
    ['a pod gone from the volume loses its clock', { c: clock(5) }, FOUND, [], [], {}],
    [
      'an unreadable list keeps every clock',
      { a: clock(5), c: clock(6) },
      { kind: 'unreadable', reason: 'x' },
      [],
      [],
      { a: clock(5), c: clock(6) },
    ],
    ['an empty volume has none', { a: clock(5) }, { kind: 'not-found' }, [], [], {}],
  ])('%s', (_rule, previous, lookup, readings, entries, expected) => {
    // Strict: a pod left without a clock has no key at all, not one holding undefined.
    expect(nextErrorClocks(previous, lookup, readings, entries, NOW)).toStrictEqual(expected);
  });

  it('keeps a pod id such as __proto__ as data', () => {
    const lookup: VolumeLookup = { kind: 'found', podIds: ['__proto__'] };
    const next = nextErrorClocks({}, lookup, [read('__proto__', found('Error', '__proto__'))], [], NOW);
    expect(Object.entries(next)).toEqual([['__proto__', clock(NOW)]]);
  });
});

describe(errorGraceMs.name, () => {
  it.each<[string, number, number]>([
    ['the boot grace', 20, 1_200_000],
    ['a decimal boot grace', 0.05, 3_000],
    ['boot grace 0 (the never-ready guard off) still stops ERROR after the default 20 min', 0, 1_200_000],
    ['a negative value is no grace either: the default', -1, 1_200_000],
  ])('%s', (_rule, minutes, expected) => {
    expect(errorGraceMs(minutes)).toBe(expected);
  });
});

describe(errorActionsDue.name, () => {
  it.each<[string, ErrorClocks, DueErrorAction[]]>([
    ['not due one ms before the grace', { a: clock(NOW - GRACE + 1) }, []],
    ['a stop at exactly the grace', { a: clock(NOW - GRACE) }, [{ podId: 'a', action: 'stop' }]],
    ['no second stop once one was accepted', { a: clock(NOW - GRACE - 5_000, NOW - 5_000) }, []],
    [
      'a terminate a second grace on, the stop accepted but not carried out',
      { a: clock(NOW - 2 * GRACE, NOW - GRACE) },
      [{ podId: 'a', action: 'terminate' }],
    ],
    [
      'a terminate a second grace on, the stops failing',
      { a: clock(NOW - 2 * GRACE) },
      [{ podId: 'a', action: 'terminate' }],
    ],
    [
      'still a stop one ms before the second grace',
      { a: clock(NOW - 2 * GRACE + 1) },
      [{ podId: 'a', action: 'stop' }],
    ],
    [
      'only the due ones, each its own action',
      { a: clock(NOW - 3 * GRACE), b: clock(NOW - GRACE), c: clock(NOW - 1_000) },
      [
        { podId: 'a', action: 'terminate' },
        { podId: 'b', action: 'stop' },
      ],
    ],
  ])('%s', (_rule, clocks, expected) => {
    expect(errorActionsDue(clocks, GRACE, NOW)).toEqual(expected);
  });
});

describe(isStopRefusal.name, () => {
  it.each<[number, boolean]>([
    [400, true],
    [409, true],
    [422, true],
    [499, true],
    [401, false],
    [403, false],
    [404, false],
    [408, false],
    [429, false],
    [500, false],
    [503, false],
    [0, false],
    [200, false],
    [399, false],
  ])('HTTP %i is a refusal: %s', (status, expected) => {
    expect(isStopRefusal(status)).toBe(expected);
  });
});

describe(afterErrorStop.name, () => {
  const before = clock(5);
  it.each<[string, { ok: boolean; httpStatus: number }, boolean, ErrorClock, boolean]>([
    [
      'accepted: the stop time is kept, no terminate',
      { ok: true, httpStatus: 200 },
      true,
      clock(5, NOW),
      false,
    ],
    ['refused outright on our volume: terminate now', { ok: false, httpStatus: 400 }, true, before, true],
    [
      'refused outright, not listed on our volume: never terminated',
      { ok: false, httpStatus: 409 },
      false,
      before,
      false,
    ],
    ['a 5xx is retried, not a refusal', { ok: false, httpStatus: 500 }, true, before, false],
    ['no answer is retried', { ok: false, httpStatus: 0 }, true, before, false],
    ['rate-limited is retried', { ok: false, httpStatus: 429 }, true, before, false],
  ])('%s', (_rule, answer, onVolume, expectedClock, terminate) => {
    expect(afterErrorStop(before, answer, onVolume, NOW)).toEqual({ clock: expectedClock, terminate });
  });
});

describe(afterErrorTerminate.name, () => {
  it.each<[string, { ok: boolean; httpStatus: number }, ErrorClock | null]>([
    ['accepted drops the clock', { ok: true, httpStatus: 204 }, null],
    ['refused keeps it for the next tick', { ok: false, httpStatus: 409 }, clock(5)],
    ['unanswered keeps it', { ok: false, httpStatus: 0 }, clock(5)],
  ])('%s', (_rule, answer, expected) => {
    expect(afterErrorTerminate(clock(5), answer)).toEqual(expected);
  });
});

describe(isListedOnVolume.name, () => {
  it.each<[string, ListedPod[], boolean]>([
    ['listed on the volume', [listed('a', 'ERROR', ['vol-1'])], true],
    ['listed among other volumes too', [listed('a', 'ERROR', ['vol-2', 'vol-1'])], true],
    ['listed on another volume', [listed('a', 'ERROR', ['vol-2'])], false],
    ['listed with no volume', [listed('a', 'ERROR', [])], false],
    ['another pod on the volume', [listed('b', 'ERROR', ['vol-1'])], false],
    ['not listed', [], false],
  ])('%s', (_rule, entries, expected) => {
    expect(isListedOnVolume(entries, 'a', 'vol-1')).toBe(expected);
  });
});

describe(readErrorClocks.name, () => {
  it.each<[string, unknown, ErrorClocks]>([
    ['absent', undefined, {}],
    ['null', null, {}],
    ['an array', [clock(1)], {}],
    ['well formed', { a: clock(1), b: clock(2, 3) }, { a: clock(1), b: clock(2, 3) }],
    [
      'a malformed entry is dropped, the rest kept',
      { a: { since: 'x', stoppedAt: null }, b: clock(2) },
      { b: clock(2) },
    ],
    ['a missing stoppedAt is malformed', { a: { since: 1 } }, {}],
    ['a non-object entry is dropped', { a: 5 }, {}],
    ['a non-finite time is dropped', { a: { since: 1, stoppedAt: Number.NaN } }, {}],
    ['a non-finite start is dropped', { a: { since: Infinity, stoppedAt: null } }, {}],
    ['a null entry is dropped, the rest kept', { a: null, b: clock(2) }, { b: clock(2) }],
    ['a text record', 'a', {}],
    ['a number record', 5, {}],
  ])('%s', (_rule, raw, expected) => {
    expect(readErrorClocks(raw)).toStrictEqual(expected);
  });
});
