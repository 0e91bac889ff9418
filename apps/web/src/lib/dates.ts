import { formatDayMonthYear, formatHoursMinutes, type DateInput } from '@portal/contracts';
import { useBrowserRender } from './hydration';

export type DisplayTimeZone = 'browser' | 'server-render';

/**
 * Where a page that may be server-rendered writes its dates: in UTC on the server and in the
 * browser's render that takes the server's HTML over (both must write the same text), then in the
 * browser's own time zone.
 */
export function useDisplayTimeZone(): DisplayTimeZone {
  return useBrowserRender() ? 'browser' : 'server-render';
}

/** 05 Jan 2026, in the browser's time zone; in UTC on the server (it does not know the browser's). */
export function formatDate(value: DateInput, timeZone: DisplayTimeZone = 'browser'): string {
  return formatDayMonthYear(value, timeZone === 'browser' ? 'local' : 'utc');
}

/** 09:07, in the browser's time zone. */
export const formatTime = formatHoursMinutes;
