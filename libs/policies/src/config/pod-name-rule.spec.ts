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

  it.each(['', 'my pod', 'a/b', 'qwen?x=1', 'qwen#1', 'qwén', 'a%2Fb'])(
    '%j is refused: outside letters, digits, "-", "_" and "."',
    (name) => {
      expect(isUrlSafePodName(name)).toBe(false);
    },
  );
});
