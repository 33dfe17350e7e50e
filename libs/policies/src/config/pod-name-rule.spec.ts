import { isUrlSafePodName } from './pod-name-rule';

describe(isUrlSafePodName.name, () => {
  it.each(['qwen', 'Llama-3.1_70b', 'qwen.', '.qwen', 'a..b', '..x', 'x..'])(
    '%j is URL-safe: dots are fine beside other characters',
    (name) => {
      expect(isUrlSafePodName(name)).toBe(true);
    },
  );

  it.each(['.', '..', '...'])('%j is refused: a dots-only segment is resolved away by clients', (name) => {
    expect(isUrlSafePodName(name)).toBe(false);
  });

  it('allows 100 characters and refuses 101: a longer name could never pass the wake queue', () => {
    expect(isUrlSafePodName('q'.repeat(100))).toBe(true);
    expect(isUrlSafePodName('q'.repeat(101))).toBe(false);
    expect(isUrlSafePodName('q'.repeat(10_240))).toBe(false);
  });

  it.each(['', 'my pod', 'a/b', 'qwen?x=1', 'qwen#1', 'qwén', 'a%2Fb'])(
    '%j is refused: outside letters, digits, "-", "_" and "."',
    (name) => {
      expect(isUrlSafePodName(name)).toBe(false);
    },
  );
});
