import { describe, expect, it } from 'vitest';
import { formatDayMonthYear, formatHoursMinutes } from './dates.ts';

describe('the portal’s dates', () => {
  it('write what Intl writes, locally and in UTC, across years, months and hours, with three-letter months', () => {
    const options = { day: '2-digit', month: 'short', year: 'numeric' } as const;
    const local = new Intl.DateTimeFormat('en-US', options);
    const utc = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
    const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    // Intl's en-US writes "Jan 05, 2026"; the portal writes "05 Jan 2026".
    const dayFirst = (written: string) => written.replace(/^(\w+) (\d+), (\d+)$/, '$2 $1 $3');
    // Every 37 hours and 13 minutes over eight years: each month, day and hour, leap days included.
    for (let at = Date.UTC(2020, 0, 1); at < Date.UTC(2028, 0, 1); at += (37 * 60 + 13) * 60_000) {
      expect(formatDayMonthYear(at, 'local')).toBe(dayFirst(local.format(at)));
      expect(formatDayMonthYear(at, 'utc')).toBe(dayFirst(utc.format(at)));
      expect(formatHoursMinutes(at)).toBe(time.format(at));
    }
    expect(formatDayMonthYear(Date.UTC(2025, 8, 30), 'utc')).toBe('30 Sep 2025');
  });

  it('refuse what names no moment, as Intl does', () => {
    expect(() => formatDayMonthYear('not a date', 'utc')).toThrow(RangeError);
    expect(() => formatHoursMinutes(Number.NaN)).toThrow(RangeError);
  });
});
