import { quoteConfigValue } from './quote-config-value';

describe(quoteConfigValue.name, () => {
  it.each([
    ['a plain string', 'qwen', '"qwen"'],
    ['a newline, escaped so it cannot start a log line', 'a\nb', '"a\\nb"'],
    ['a number', 1.5, '1.5'],
    ['undefined, which JSON cannot write', undefined, 'undefined'],
  ])('quotes %s as JSON', (_case, value, quoted) => {
    expect(quoteConfigValue(value)).toBe(quoted);
  });

  it('keeps a quoted value of exactly 80 characters whole', () => {
    const value = 'x'.repeat(78);
    expect(quoteConfigValue(value)).toBe(`"${value}"`);
  });

  it('cuts a quoted value of 81 characters to its first 80 and an ellipsis', () => {
    const value = 'x'.repeat(79);
    expect(quoteConfigValue(value)).toBe(`"${'x'.repeat(79)}…`);
  });
});
