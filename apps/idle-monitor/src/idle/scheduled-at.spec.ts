import { scheduledAtOf } from './scheduled-at';

describe(scheduledAtOf.name, () => {
  it.each<[string, string | undefined, number]>([
    ['a scheduler job: the time its id ends in', 'repeat:idle-tick-every-check:1764496800000', 1764496800000],
    ['digits not at the end are not a scheduled time', 'repeat:1764496800000:manual', 42],
    ['fewer than ten digits are not an epoch time', 'repeat:idle-tick-every-check:123456789', 42],
    ['a job without an id: its creation time', undefined, 42],
  ])('%s', (_rule, id, scheduledAt) => {
    expect(scheduledAtOf({ id, timestamp: 42 })).toBe(scheduledAt);
  });
});
