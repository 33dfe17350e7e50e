import type { PodActivity } from '../domain/activity';
import { classifyActivity, type ActivityReading } from './activity-classification';

describe(classifyActivity.name, () => {
  it.each<[string, PodActivity, number | null, ActivityReading, number | null]>([
    [
      'a request in flight reads Busy even though the counter stood still',
      { active: 2, completed: 10 },
      10,
      'Busy',
      10,
    ],
    ['a single request in flight reads Busy', { active: 1, completed: 10 }, 10, 'Busy', 10],
    [
      'a request in flight with no baseline reads Busy and seeds the baseline',
      { active: 1, completed: 5 },
      null,
      'Busy',
      5,
    ],
    [
      'a request in flight while the counter advanced reads Busy',
      { active: 1, completed: 12 },
      10,
      'Busy',
      12,
    ],
    [
      'a counter that advanced since the baseline reads Busy (a turn between two ticks)',
      { active: 0, completed: 11 },
      10,
      'Busy',
      11,
    ],
    [
      'a counter that went backwards reads Busy (the process restarted)',
      { active: 0, completed: 3 },
      10,
      'Busy',
      3,
    ],
    ['a counter back at zero reads Busy (a restarted process)', { active: 0, completed: 0 }, 10, 'Busy', 0],
    [
      'a counter with no baseline reads Busy: the seed banks no idle evidence',
      { active: 0, completed: 42 },
      null,
      'Busy',
      42,
    ],
    ['a zero counter with no baseline reads Busy, not Idle', { active: 0, completed: 0 }, null, 'Busy', 0],
    ['an unchanged counter with nothing in flight reads Idle', { active: 0, completed: 10 }, 10, 'Idle', 10],
    [
      'an unchanged zero counter with nothing in flight reads Idle',
      { active: 0, completed: 0 },
      0,
      'Idle',
      0,
    ],
    [
      'no counter and nothing in flight reads Idle on the gauge alone',
      { active: 0, completed: null },
      null,
      'Idle',
      null,
    ],
    [
      'no counter keeps an existing baseline and reads the gauge',
      { active: 0, completed: null },
      9,
      'Idle',
      9,
    ],
    [
      'no counter with a request in flight reads Busy on the gauge',
      { active: 1, completed: null },
      null,
      'Busy',
      null,
    ],
    ['no counter with a request in flight keeps the baseline', { active: 3, completed: null }, 7, 'Busy', 7],
  ])('%s', (_rule, current, baseline, reading, nextBaseline) => {
    expect(classifyActivity(current, baseline)).toEqual({ reading, nextBaseline });
  });

  it('a turn between two ticks is seen: seed, then idle, then the counter moves, then idle again', () => {
    const scrapes: PodActivity[] = [
      { active: 0, completed: 100 },
      { active: 0, completed: 100 },
      { active: 0, completed: 160 },
      { active: 0, completed: 160 },
    ];
    const readings: ActivityReading[] = [];
    let baseline: number | null = null;
    for (const scrape of scrapes) {
      const classification = classifyActivity(scrape, baseline);
      readings.push(classification.reading);
      baseline = classification.nextBaseline;
    }
    expect(readings).toEqual(['Busy', 'Idle', 'Busy', 'Idle']);
  });
});
