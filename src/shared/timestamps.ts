/**
 * An RFC 3339 timestamp (`2026-01-31T09:30:00Z`, `…T09:30:00.5+02:00`) whose every field is in
 * range: month 1–12, a day the month has (Feb 29 only in leap years), hour ≤ 23, minute and
 * second ≤ 59 and an offset within ±23:59. A leap second (`23:59:60`) is refused too: a JavaScript
 * date cannot hold one, so it would silently become the next day. `new Date()` alone accepts
 * many of these and rolls them over.
 */
const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

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
  const [offsetHours, offsetMinutes] = [Number(match[7] ?? 0), Number(match[8] ?? 0)];
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 23 &&
    offsetMinutes <= 59
  );
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Days in a month (1–12) of the proleptic Gregorian calendar. */
const daysInMonth = (year: number, month: number): number =>
  month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
