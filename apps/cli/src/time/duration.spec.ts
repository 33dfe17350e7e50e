import { formatDuration, parseDuration } from './duration';

describe(parseDuration.name, () => {
  it.each([
    ['1s', 1_000],
    ['90s', 90_000],
    ['10m', 600_000],
    ['10M', 600_000],
    [' 2h ', 7_200_000],
    ['1.5h', 5_400_000],
    ['1h30m', 5_400_000],
    ['7d', 604_800_000],
    ['0.5s', null],
  ])('%j is %p ms', (text, ms) => {
    const parsed = parseDuration(text);
    if (ms === null) expect(parsed.ok).toBe(false);
    else expect(parsed).toEqual({ ok: true, ms });
  });

  it.each([
    '',
    '0',
    '0s',
    '0m',
    '-5m',
    '-1s',
    '10',
    'abc',
    '10 m',
    '5x',
    'm',
    '1e3s',
    '7d1s',
    '8d',
    '100000d',
    'NaNs',
    'Infinitys',
  ])('refuses %j with a reason naming it', (text) => {
    const parsed = parseDuration(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain(JSON.stringify(text));
  });

  it('says why: a bare number needs a unit, and the range is 1s to 7d', () => {
    expect(parseDuration('600')).toMatchObject({ reason: expect.stringContaining('s, m, h or d') });
    expect(parseDuration('8d')).toMatchObject({ reason: expect.stringContaining('from 1s to 7d') });
  });
});

describe(formatDuration.name, () => {
  it.each([
    [0, '0s'],
    [999, '0s'],
    [45_000, '45s'],
    [185_000, '3m05s'],
    [3_720_000, '1h02m'],
    [-5, '0s'],
  ])('%p ms reads %p', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
