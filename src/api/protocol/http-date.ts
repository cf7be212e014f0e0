/**
 * HTTP dates (RFC 9110 §5.6.7): `Last-Modified`, `Date`, `Expires`, `If-Modified-Since` and the signing date
 * (ref §2.4, §11.4). The one formatter and the one parser for the console and the emulator.
 */

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const LONG_DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const RFC850_DATE =
  /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const ASCTIME_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

function buildUtcDate(
  year: number,
  monthName: string,
  day: number,
  hour: number,
  minute: number,
  second: number,
  weekday: number,
): Date | null {
  const month = (MONTH_NAMES as readonly string[]).indexOf(monthName);
  if (month < 0 || hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  date.setUTCHours(hour, minute, second, 0);
  // Reject rolled-over dates (31 Feb) and a weekday that contradicts the date.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month || date.getUTCDate() !== day) return null;
  if (date.getUTCDay() !== weekday) return null;
  return date;
}

/**
 * Parses an HTTP-date: IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT") and the two obsolete forms every
 * recipient must accept (RFC 850 "Sunday, 06-Nov-94 08:49:37 GMT" and asctime "Sun Nov  6 08:49:37 1994").
 * Case-sensitive as RFC 9110 requires. Returns null for anything else, for impossible dates and for a
 * weekday that does not match the date (`Date.parse` alone is lenient: it reads "0" as the year 2000).
 * Two-digit RFC 850 years more than 50 years ahead of `now` are taken as the previous century.
 */
export function parseHttpDate(value: string, now: Date = new Date()): Date | null {
  let match = IMF_FIXDATE.exec(value);
  if (match) {
    const [, dayName = '', day = '', month = '', year = '', hh = '', mm = '', ss = ''] = match;
    return buildUtcDate(Number(year), month, Number(day), Number(hh), Number(mm), Number(ss),
      (DAY_NAMES as readonly string[]).indexOf(dayName));
  }
  match = RFC850_DATE.exec(value);
  if (match) {
    const [, dayName = '', day = '', month = '', yy = '', hh = '', mm = '', ss = ''] = match;
    const nowYear = now.getUTCFullYear();
    let year = Math.floor(nowYear / 100) * 100 + Number(yy);
    if (year > nowYear + 50) year -= 100;
    return buildUtcDate(year, month, Number(day), Number(hh), Number(mm), Number(ss),
      (LONG_DAY_NAMES as readonly string[]).indexOf(dayName));
  }
  match = ASCTIME_DATE.exec(value);
  if (match) {
    const [, dayName = '', month = '', day = '', hh = '', mm = '', ss = '', year = ''] = match;
    return buildUtcDate(Number(year), month, Number(day.trim()), Number(hh), Number(mm), Number(ss),
      (DAY_NAMES as readonly string[]).indexOf(dayName));
  }
  return null;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** IMF-fixdate, e.g. "Wed, 10 Dec 2014 17:20:31 GMT". Throws RangeError outside years 0000–9999. */
export function formatHttpDate(date: Date): string {
  const year = date.getUTCFullYear();
  if (!Number.isFinite(date.getTime()) || year < 0 || year > 9999) {
    throw new RangeError('An HTTP date needs a valid date with a four-digit year.');
  }
  return (
    `${DAY_NAMES[date.getUTCDay()]}, ${pad2(date.getUTCDate())} ${MONTH_NAMES[date.getUTCMonth()]} ` +
    `${String(year).padStart(4, '0')} ${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}:` +
    `${pad2(date.getUTCSeconds())} GMT`
  );
}
