import {
  SCHEDULER_CHECK_MAX_MS,
  schedulerCheckMs,
  schedulerPresence,
  type SchedulerPresence,
  type SchedulerReading,
} from './tick-scheduler-check';

const NEXT = 1_700_000_000_000;

describe(schedulerPresence.name, () => {
  it.each<[string, SchedulerReading, SchedulerPresence]>([
    ['Redis did not answer: unknown, never missing', { kind: 'unreadable' }, 'unknown'],
    ['no scheduler (an emptied Redis): missing', { kind: 'absent' }, 'missing'],
    [
      'the scheduler and its next job: present',
      { kind: 'present', nextRunAt: NEXT, nextJobFound: true, nextRunAgainAt: null },
      'present',
    ],
    [
      'the next job found; a stale re-read is ignored',
      { kind: 'present', nextRunAt: NEXT, nextJobFound: true, nextRunAgainAt: NEXT },
      'present',
    ],
    [
      'the scheduler without its next job, unchanged when read again: missing (it would never tick)',
      { kind: 'present', nextRunAt: NEXT, nextJobFound: false, nextRunAgainAt: NEXT },
      'missing',
    ],
    [
      'the scheduler without its next job, and gone when read again: missing',
      { kind: 'present', nextRunAt: NEXT, nextJobFound: false, nextRunAgainAt: null },
      'missing',
    ],
    [
      'the next job not found because a worker took it and the scheduler moved on: present',
      { kind: 'present', nextRunAt: NEXT, nextJobFound: false, nextRunAgainAt: NEXT + 1000 },
      'present',
    ],
    [
      'moved on to an earlier run (a CHECK_SECONDS replaced by another replica): present',
      { kind: 'present', nextRunAt: NEXT, nextJobFound: false, nextRunAgainAt: NEXT - 1 },
      'present',
    ],
  ])('%s', (_why, reading, expected) => {
    expect(schedulerPresence(reading)).toBe(expected);
  });
});

describe(schedulerCheckMs.name, () => {
  it.each<[number, number]>([
    [1, 2000],
    [5, 10_000],
    [15, 30_000],
    [16, SCHEDULER_CHECK_MAX_MS],
    [60, SCHEDULER_CHECK_MAX_MS],
    [86_400, SCHEDULER_CHECK_MAX_MS],
  ])('CHECK_SECONDS=%d ⇒ every %d ms', (checkSeconds, expected) => {
    expect(schedulerCheckMs(checkSeconds)).toBe(expected);
  });
});
