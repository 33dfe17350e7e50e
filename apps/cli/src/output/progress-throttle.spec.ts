import { progressDue } from './progress-throttle';

const cadence = { minGapMs: 2_000, heartbeatMs: 15_000 };

describe(progressDue.name, () => {
  it.each([
    ['the first line', null, 'a', 0, true],
    ['a change inside the gap', { text: 'a', at: 0 }, 'b', 1_999, false],
    ['a change once the gap has passed', { text: 'a', at: 0 }, 'b', 2_000, true],
    ['the same state before the heartbeat', { text: 'a', at: 0 }, 'a', 14_999, false],
    ['the same state at the heartbeat', { text: 'a', at: 0 }, 'a', 15_000, true],
  ])('%s: %p', (_what, last, text, now, due) => {
    expect(progressDue(last, text as string, now as number, cadence)).toBe(due);
  });
});
