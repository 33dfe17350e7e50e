import { DEFAULT_HISTORY_LIMIT, parseHistoryLimit } from './history-limit';

describe(parseHistoryLimit.name, () => {
  it.each([
    ['absent is the default', undefined, DEFAULT_HISTORY_LIMIT],
    ['1 is the least', '1', 1],
    ['200 is the most', '200', 200],
    ['a value in range', '50', 50],
  ])('accepts: %s', (_rule, raw, limit) => {
    expect(parseHistoryLimit(raw)).toEqual({ ok: true, limit });
  });

  it.each([
    ['zero', '0'],
    ['above the maximum', '201'],
    ['negative', '-1'],
    ['a decimal', '1.5'],
    ['words', 'ten'],
    ['empty', ''],
    ['an exponent', '1e2'],
    ['repeated parameters', ['5', '6']],
  ])('refuses: %s', (_rule, raw) => {
    expect(parseHistoryLimit(raw).ok).toBe(false);
  });
});
