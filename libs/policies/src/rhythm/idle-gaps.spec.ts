import { idleGaps, sessionStarts } from './idle-gaps';

const m = (minutes: number) => minutes * 60_000;

describe('idleGaps', () => {
  it.each([
    { name: 'no uses', uses: [], gaps: [] },
    { name: 'one use', uses: [[0, 1]], gaps: [] },
    {
      name: 'two uses apart',
      uses: [
        [0, 1],
        [5, 6],
      ],
      gaps: [[5, 4]],
    },
    {
      name: 'overlapping uses are one busy span',
      uses: [
        [0, 4],
        [1, 2],
        [6, 7],
      ],
      gaps: [[6, 2]],
    },
    {
      name: 'touching uses leave no gap',
      uses: [
        [0, 2],
        [2, 3],
      ],
      gaps: [],
    },
    {
      name: 'unsorted input',
      uses: [
        [10, 11],
        [0, 1],
      ],
      gaps: [[10, 9]],
    },
    {
      name: 'a long use hides a later short one',
      uses: [
        [0, 10],
        [2, 3],
        [12, 13],
      ],
      gaps: [[12, 2]],
    },
    {
      // Sorted by start, not by end: the long use from 2 still covers the short one from 5.
      name: 'a use inside a longer one that started later than another',
      uses: [
        [0, 1],
        [5, 6],
        [2, 10],
      ],
      gaps: [[2, 1]],
    },
  ])('$name', ({ uses, gaps }) => {
    const found = idleGaps(uses.map(([start, end]) => ({ start: m(start), end: m(end) })));
    expect(found).toEqual(gaps.map(([endedAt, minutes]) => ({ endedAt: m(endedAt), minutes })));
  });
});

describe('sessionStarts', () => {
  it.each([
    { name: 'the first use starts a session', uses: [[0, 1]], longer: 15, starts: [0] },
    {
      name: 'a gap up to the window continues it',
      uses: [
        [0, 1],
        [16, 17],
      ],
      longer: 15,
      starts: [0],
    },
    {
      name: 'a gap beyond the window starts another',
      uses: [
        [0, 1],
        [16.5, 17],
      ],
      longer: 15,
      starts: [0, 16.5],
    },
    {
      name: 'overlap counts from the latest end',
      uses: [
        [0, 30],
        [5, 6],
        [40, 41],
      ],
      longer: 15,
      starts: [0],
    },
    {
      name: 'unsorted input',
      uses: [
        [40, 41],
        [0, 1],
        [20, 21],
      ],
      longer: 15,
      starts: [0, 20, 40],
    },
    {
      name: 'sorted by start, not by end',
      uses: [
        [0, 1],
        [25, 26],
        [20, 40],
      ],
      longer: 15,
      starts: [0, 20],
    },
  ])('$name', ({ uses, longer, starts }) => {
    expect(
      sessionStarts(
        uses.map(([start, end]) => ({ start: m(start), end: m(end) })),
        longer,
      ),
    ).toEqual(starts.map(m));
  });
});
