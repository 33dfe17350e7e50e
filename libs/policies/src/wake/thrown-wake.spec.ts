import { MAX_WAKE_RUNS, WAKE_RERUN_DELAY_MS, thrownWakeRunsAgain } from './thrown-wake';

describe('thrownWakeRunsAgain', () => {
  it.each([
    // runsStarted, cancelled, runs again
    [1, false, true],
    [2, false, true],
    [3, false, true],
    [4, false, false],
    [5, false, false],
    [100, false, false],
    [1, true, false],
    [3, true, false],
    [4, true, false],
    [0, false, false],
    [-1, false, false],
    [1.5, false, false],
    [Number.NaN, false, false],
    [Number.POSITIVE_INFINITY, false, false],
  ])('run %p (cancelled %p) runs again: %p', (runsStarted, cancelled, expected) => {
    expect(thrownWakeRunsAgain({ runsStarted, cancelled })).toBe(expected);
  });

  it('grants exactly MAX_WAKE_RUNS runs in all, the first included', () => {
    expect(MAX_WAKE_RUNS).toBe(4);
    const granted = Array.from({ length: 10 }, (_, i) => i + 1).filter((runsStarted) =>
      thrownWakeRunsAgain({ runsStarted, cancelled: false }),
    );
    // Runs 1..3 are each followed by another; run 4 is the last.
    expect(granted).toEqual([1, 2, 3]);
  });

  it('waits two seconds before the next run', () => {
    expect(WAKE_RERUN_DELAY_MS).toBe(2000);
  });
});
