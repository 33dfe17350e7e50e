const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)';
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

// RFC 9110 §5.6.7: IMF-fixdate, then the two obsolete forms a recipient must still accept.
const IMF_FIXDATE = new RegExp(`^[a-z]{3}, (\\d{1,2}) ${MONTH} (\\d{4}) ${TIME} gmt$`, 'i');
const RFC_850 = new RegExp(`^[a-z]{6,9}, (\\d{1,2})-${MONTH}-(\\d{2}) ${TIME} gmt$`, 'i');
const ASCTIME = new RegExp(`^[a-z]{3} ${MONTH} +(\\d{1,2}) ${TIME} (\\d{4})$`, 'i');

/**
 * Epoch milliseconds of an HTTP date, or null. Hand-rolled because Date.parse
 * accepts almost anything ("1" is the year 2001) and reads asctime as local time.
 */
export function parseHttpDate(text: string): number | null {
  const value = text.trim();
  let match = IMF_FIXDATE.exec(value);
  if (match !== null) {
    return utc(Number(match[3]), match[2], Number(match[1]), match.slice(4, 7));
  }
  match = RFC_850.exec(value);
  if (match !== null) {
    const twoDigitYear = Number(match[3]);
    // Good enough for a Retry-After: a two-digit year below 70 is this century.
    const year = twoDigitYear < 70 ? 2000 + twoDigitYear : 1900 + twoDigitYear;
    return utc(year, match[2], Number(match[1]), match.slice(4, 7));
  }
  match = ASCTIME.exec(value);
  if (match !== null) {
    return utc(Number(match[6]), match[1], Number(match[2]), match.slice(3, 6));
  }
  return null;
}

function utc(year: number, monthName: string, day: number, time: string[]): number | null {
  const month = MONTHS.indexOf(monthName.toLowerCase());
  const [hours, minutes, seconds] = time.map(Number);
  if (hours > 23 || minutes > 59 || seconds > 60) {
    return null;
  }
  const epochMs = Date.UTC(year, month, day, hours, minutes, Math.min(seconds, 59));
  // Date.UTC rolls 31 Feb over into March; a date that does not round-trip is not a date.
  const roundTrip = new Date(epochMs);
  return roundTrip.getUTCDate() === day && roundTrip.getUTCMonth() === month ? epochMs : null;
}
