import { formatDuration } from './format-duration';

describe('formatDuration (the "ready after" and "boot grace" texts)', () => {
  it.each<[number | null, string]>([
    [null, 'unknown'],
    [0, '0s'],
    [499, '0s'],
    [500, '1s'],
    [59_499, '59s'],
    [59_500, '1m00s'],
    [65_000, '1m05s'],
    [1_200_000, '20m00s'],
    [3_723_000, '62m03s'],
  ])('%p ms reads %p: whole seconds, minutes with two-digit seconds', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
