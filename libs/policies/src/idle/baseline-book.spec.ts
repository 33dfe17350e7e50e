import fc from 'fast-check';
import type { PodActivity } from '../domain/activity';
import type { PodObservation, PodStatus } from '../domain/pod';
import { classifyActivity, type ActivityReading } from './activity-classification';
import {
  baselineEvent,
  baselineOf,
  nextBaselines,
  processEnded,
  type BaselineBook,
  type BaselineEvent,
  type BaselineUpdate,
} from './baseline-book';

const scraped = (podId: string, nextBaseline: number | null): BaselineUpdate => ({
  podId,
  event: { kind: 'scraped', nextBaseline },
});
const unreachable = (podId: string): BaselineUpdate => ({ podId, event: { kind: 'unreachable' } });
const ended = (podId: string): BaselineUpdate => ({ podId, event: { kind: 'ended' } });

describe(nextBaselines.name, () => {
  it.each<[string, BaselineBook, string[], BaselineUpdate[], BaselineBook]>([
    ['a scrape records its counter', {}, ['a'], [scraped('a', 5)], { a: 5 }],
    ['a scrape replaces the previous counter', { a: 3 }, ['a'], [scraped('a', 5)], { a: 5 }],
    ['a zero counter is a baseline like any other', {}, ['a'], [scraped('a', 0)], { a: 0 }],
    ['a scrape with no counter and no baseline leaves none', { a: 3 }, ['a'], [scraped('a', null)], {}],
    [
      'an unreachable tick keeps the baseline (a flap must not re-seed)',
      { a: 3 },
      ['a'],
      [unreachable('a')],
      { a: 3 },
    ],
    ['an unreachable tick creates no baseline', {}, ['a'], [unreachable('a')], {}],
    [
      'an ended process drops its baseline (the id is reused, counters restart)',
      { a: 3 },
      ['a'],
      [ended('a')],
      {},
    ],
    ['an ended process leaves its siblings alone', { a: 3, b: 4 }, ['a', 'b'], [ended('a')], { b: 4 }],
    ['a pod that left the volume is pruned', { a: 3, b: 4 }, ['a'], [], { a: 3 }],
    ['a scrape of a pod not on the volume is not kept', {}, ['a'], [scraped('b', 5)], {}],
    ['an empty volume keeps nothing', { a: 3 }, [], [unreachable('a')], {}],
    ['later updates win: scraped then ended', { a: 3 }, ['a'], [scraped('a', 5), ended('a')], {}],
    [
      'later updates win: ended then a new process scraped',
      { a: 3 },
      ['a'],
      [ended('a'), scraped('a', 0)],
      { a: 0 },
    ],
    [
      'each pod gets its own update',
      { a: 1, b: 2, c: 3 },
      ['a', 'b', 'c', 'd'],
      [scraped('a', 10), unreachable('b'), ended('c'), scraped('d', 4)],
      { a: 10, b: 2, d: 4 },
    ],
  ])('%s', (_rule, book, podsOnVolume, updates, expected) => {
    expect(nextBaselines(book, podsOnVolume, updates)).toEqual(expected);
  });

  it('leaves the book it was given untouched', () => {
    const book: BaselineBook = Object.freeze({ a: 3, b: 4 });
    nextBaselines(book, ['a'], [scraped('a', 9), ended('b')]);
    expect(book).toEqual({ a: 3, b: 4 });
  });

  it('an id that names an Object property is stored as plain data', () => {
    const book = nextBaselines(
      {},
      ['__proto__', 'constructor'],
      [scraped('__proto__', 5), scraped('constructor', 6)],
    );
    expect(Object.getPrototypeOf(book)).toBe(Object.prototype);
    expect(baselineOf(book, '__proto__')).toBe(5);
    expect(baselineOf(book, 'constructor')).toBe(6);
  });

  it('never keeps an id that is not on the volume', () => {
    const ids = fc.constantFrom('a', 'b', 'c', 'd', 'constructor');
    const event: fc.Arbitrary<BaselineEvent> = fc.oneof(
      fc.record({ kind: fc.constant('scraped' as const), nextBaseline: fc.option(fc.nat()) }),
      fc.constant({ kind: 'unreachable' as const }),
      fc.constant({ kind: 'ended' as const }),
    );
    fc.assert(
      fc.property(
        fc.dictionary(ids, fc.nat()),
        fc.array(ids, { maxLength: 5 }),
        fc.array(fc.record({ podId: ids, event }), { maxLength: 10 }),
        (book, podsOnVolume, updates) => {
          const next = nextBaselines(book, podsOnVolume, updates);
          for (const podId of Object.keys(next)) {
            expect(podsOnVolume).toContain(podId);
          }
        },
      ),
    );
  });
});

describe(baselineOf.name, () => {
  it.each<[string, BaselineBook, string, number | null]>([
    ['a recorded baseline is returned', { a: 7 }, 'a', 7],
    ['a zero baseline is returned as zero, not absent', { a: 0 }, 'a', 0],
    ['an unknown pod has no baseline', { a: 7 }, 'b', null],
    ['an inherited Object member is not a baseline', {}, 'toString', null],
  ])('%s', (_rule, book, podId, expected) => {
    expect(baselineOf(book, podId)).toBe(expected);
  });
});

function found(status: PodStatus): PodObservation {
  return { kind: 'found', podId: 'a', status, gpuCount: 1 };
}

describe(processEnded.name, () => {
  it.each<[string, PodObservation | null, boolean]>([
    ['Provisioning is a new startup: the old process ended', found('Provisioning'), true],
    ['Starting is a new startup: the old process ended', found('Starting'), true],
    ['Exited is confirmed down', found('Exited'), true],
    ['Error is confirmed down', found('Error'), true],
    ['Terminated is confirmed down', found('Terminated'), true],
    ['Running says nothing about the process ending', found('Running'), false],
    ['an Unknown status confirms nothing', found('Unknown'), false],
    ['a pod not found confirms nothing', { kind: 'not-found', podId: 'a' }, false],
    [
      'an unreadable observation confirms nothing',
      { kind: 'unreadable', podId: 'a', reason: 'HTTP 502' },
      false,
    ],
    ['no observation confirms nothing', null, false],
  ])('%s', (_rule, observation, expected) => {
    expect(processEnded(observation)).toBe(expected);
  });
});

describe(baselineEvent.name, () => {
  it.each<[string, Parameters<typeof baselineEvent>[0], PodObservation | null, BaselineEvent]>([
    [
      'a scrape reports its next baseline',
      { reading: 'Idle', nextBaseline: 12 },
      null,
      { kind: 'scraped', nextBaseline: 12 },
    ],
    [
      'a scrape wins over any observation',
      { reading: 'Busy', nextBaseline: null },
      found('Exited'),
      { kind: 'scraped', nextBaseline: null },
    ],
    ['no scrape and a confirmed down pod reports ended', null, found('Exited'), { kind: 'ended' }],
    ['no scrape and a confirmed startup reports ended', null, found('Starting'), { kind: 'ended' }],
    ['no scrape on a Running pod is only unreachable', null, found('Running'), { kind: 'unreachable' }],
    [
      'no scrape and an unreadable pod is only unreachable',
      null,
      { kind: 'unreadable', podId: 'a', reason: 'x' },
      { kind: 'unreachable' },
    ],
    ['no scrape and no observation is only unreachable', null, null, { kind: 'unreachable' }],
  ])('%s', (_rule, scrape, observation, expected) => {
    expect(baselineEvent(scrape, observation)).toEqual(expected);
  });
});

describe('baseline lifetime across ticks', () => {
  type Tick =
    { kind: 'scrape'; activity: PodActivity } | { kind: 'dark'; observation: PodObservation | null };

  /** Runs one pod through ticks, returning the reading of each scraped tick (null for a dark one). */
  function readings(ticks: readonly Tick[]): Array<ActivityReading | null> {
    let book: BaselineBook = {};
    return ticks.map((tick) => {
      if (tick.kind === 'dark') {
        book = nextBaselines(book, ['a'], [{ podId: 'a', event: baselineEvent(null, tick.observation) }]);
        return null;
      }
      const classification = classifyActivity(tick.activity, baselineOf(book, 'a'));
      book = nextBaselines(book, ['a'], [{ podId: 'a', event: baselineEvent(classification, null) }]);
      return classification.reading;
    });
  }

  it('a flapping /metrics keeps reading idle after the seed instead of re-seeding', () => {
    const still: Tick = { kind: 'scrape', activity: { active: 0, completed: 10 } };
    const blip: Tick = { kind: 'dark', observation: found('Running') };
    expect(readings([still, blip, still, blip, still])).toEqual(['Busy', null, 'Idle', null, 'Idle']);
  });

  it('a stop/start under the same id reseeds: the new process’s zero is not compared with the old zero', () => {
    const zero: Tick = { kind: 'scrape', activity: { active: 0, completed: 0 } };
    expect(readings([zero, zero, { kind: 'dark', observation: found('Exited') }, zero, zero])).toEqual([
      'Busy',
      'Idle',
      null,
      'Busy',
      'Idle',
    ]);
  });
});
