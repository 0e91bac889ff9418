import { describe, expect, it } from 'vitest';
import { formatDate, formatTime } from './dates';

describe('formatDate and formatTime', () => {
  it("write 'dd MMM yyyy' and 'HH:mm' in the local time zone", () => {
    const at = new Date(2026, 0, 5, 9, 7);
    expect(formatDate(at)).toBe('05 Jan 2026');
    expect(formatTime(at)).toBe('09:07');
    expect(formatTime(new Date(2026, 0, 5, 0, 3))).toBe('00:03');
    expect(formatTime(new Date(2026, 0, 5, 23, 59))).toBe('23:59');
  });

  it('uses three-letter months throughout the year', () => {
    const months = Array.from(
      { length: 12 },
      (_, month) => formatDate(new Date(2026, month, 15)).split(' ')[1],
    );
    expect(months).toEqual([
      'Jan',
      'Feb',
      'Mar',
      'Apr',
      'May',
      'Jun',
      'Jul',
      'Aug',
      'Sep',
      'Oct',
      'Nov',
      'Dec',
    ]);
  });

  it('takes timestamps and ISO strings', () => {
    expect(formatDate(new Date(2025, 2, 14).getTime())).toBe('14 Mar 2025');
    expect(formatDate(new Date(2025, 5, 2).toISOString())).toBe('02 Jun 2025');
  });

  it('writes what Intl writes, in the browser and in UTC, across years, months and hours', () => {
    const browser = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: 'numeric' });
    const utc = new Intl.DateTimeFormat('en-GB', {
      day: '2-digit',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
    const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    // Every 37 hours and 13 minutes over eight years: each month, day and hour, leap days included.
    for (let at = Date.UTC(2020, 0, 1); at < Date.UTC(2028, 0, 1); at += (37 * 60 + 13) * 60_000) {
      expect(formatDate(at)).toBe(browser.format(at).replace('Sept', 'Sep'));
      expect(formatDate(at, 'server-render')).toBe(utc.format(at).replace('Sept', 'Sep'));
      expect(formatTime(at)).toBe(time.format(at));
    }
  });

  it('refuses what names no moment, as Intl does', () => {
    expect(() => formatDate('not a date')).toThrow(RangeError);
    expect(() => formatTime(Number.NaN)).toThrow(RangeError);
  });
});
