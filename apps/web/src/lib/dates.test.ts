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

  it('writes in UTC for a page being rendered by the server or taken over', () => {
    const at = Date.UTC(2025, 11, 31, 23, 30);
    expect(formatDate(at, 'server-render')).toBe('31 Dec 2025');
  });
});
