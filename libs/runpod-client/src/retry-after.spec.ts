import { parseHttpDate } from './http-date';
import { parseRetryAfterSeconds } from './retry-after';

const NOW = Date.UTC(2026, 10, 30, 10, 0, 0);

describe('parseRetryAfterSeconds', () => {
  it.each([
    ['120', 120],
    [' 7 ', 7],
    ['0', 0],
    ['1', 1], // a delta, not the year 2001 that Date.parse would make of it
    ['-5', 0],
  ])('reads delta seconds %p as %p', (header, expected) => {
    expect(parseRetryAfterSeconds(header, undefined, NOW)).toBe(expected);
  });

  it('measures an HTTP date against the response Date header, not our clock', () => {
    const seconds = parseRetryAfterSeconds(
      'Mon, 30 Nov 2026 09:00:30 GMT',
      'Mon, 30 Nov 2026 09:00:00 GMT',
      NOW, // our clock is an hour ahead; the server's own Date wins
    );
    expect(seconds).toBe(30);
  });

  it('measures an HTTP date against now when the response has no usable Date header', () => {
    expect(parseRetryAfterSeconds('Mon, 30 Nov 2026 10:00:45 GMT', undefined, NOW)).toBe(45);
    expect(parseRetryAfterSeconds('Mon, 30 Nov 2026 10:00:45 GMT', 'garbage', NOW)).toBe(45);
  });

  it('rounds a partial second up so the caller never retries early', () => {
    expect(parseRetryAfterSeconds('Mon, 30 Nov 2026 10:00:45 GMT', undefined, NOW + 500)).toBe(45);
  });

  it('clamps a date already past to 0', () => {
    expect(parseRetryAfterSeconds('Mon, 30 Nov 2026 09:59:00 GMT', undefined, NOW)).toBe(0);
  });

  it('takes the first value of a repeated header', () => {
    expect(parseRetryAfterSeconds(['3', '99'], undefined, NOW)).toBe(3);
  });

  it.each([undefined, '', 'soon', '1.5', 'Mon, 31 Feb 2026 10:00:00 GMT', '2026-11-30T10:00:00Z'])(
    'is null for the unparseable %p',
    (header) => {
      expect(parseRetryAfterSeconds(header, undefined, NOW)).toBeNull();
    },
  );
});

describe('parseHttpDate', () => {
  const expected = Date.UTC(1994, 10, 6, 8, 49, 37);

  it.each([
    ['IMF-fixdate', 'Sun, 06 Nov 1994 08:49:37 GMT'],
    ['RFC 850', 'Sunday, 06-Nov-94 08:49:37 GMT'],
    ['asctime', 'Sun Nov  6 08:49:37 1994'],
  ])('reads the %s form', (_form, text) => {
    expect(parseHttpDate(text)).toBe(expected);
  });

  it.each([
    '1',
    '2001',
    'Sun, 06 Nov 1994 25:00:00 GMT',
    'Sun, 06 Foo 1994 08:49:37 GMT',
    'Sun, 06 Nov 1994 08:49:37',
  ])('rejects %p', (text) => {
    expect(parseHttpDate(text)).toBeNull();
  });
});
