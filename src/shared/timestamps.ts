/**
 * An RFC 3339 timestamp (`2026-01-31T09:30:00Z`, `…T09:30:00.5+02:00`) whose every field is in
 * range: month 1–12, a day the month has (Feb 29 only in leap years), hour ≤ 23, minute and
 * second ≤ 59 and an offset within ±23:59. A leap second (`23:59:60`) is refused too: a JavaScript
 * date cannot hold one, so it would silently become the next day. `new Date()` alone accepts
 * many of these and rolls them over. And the instant it names must fall in the years 0000–9999
 * in UTC too: the service stores and answers timestamps in UTC (`toISOString()`, 24 characters),
 * and `9999-12-31T23:59:59-23:59` is in year 10000 there (`+010000-…`), `0000-01-01T00:00:00+01:00`
 * in year −1.
 */
const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

export function isRfc3339Timestamp(text: string): boolean {
  const match = RFC_3339.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [offsetSign, offsetHours, offsetMinutes] = [
    match[7] === '-' ? -1 : 1,
    Number(match[8] ?? 0),
    Number(match[9] ?? 0),
  ];
  const fieldsInRange =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 23 &&
    offsetMinutes <= 59;
  if (!fieldsInRange) return false;
  // An offset moves the instant by less than a day: only years 0000 and 9999 can leave the range.
  if (year > 0 && year < 9999) return true;
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day); // not Date.UTC, which reads years 0–99 as 1900–1999
  utc.setUTCHours(hour, minute - offsetSign * (offsetHours * 60 + offsetMinutes), second);
  return utc.getUTCFullYear() >= 0 && utc.getUTCFullYear() <= 9999;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Days in a month (1–12) of the proleptic Gregorian calendar. */
const daysInMonth = (year: number, month: number): number =>
  month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
