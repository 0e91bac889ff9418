import { useHydrated } from './hydration';

/**
 * Dates as the portal shows them (§2: 'dd MMM yyyy' and 'HH:mm'), in the browser's time zone. The
 * browser's own Intl formats them, so no date library loads with the pages that show dates.
 */
const dayMonthYear = new Intl.DateTimeFormat('en-US', { day: '2-digit', month: 'short', year: 'numeric' });

/** The server renders dates in UTC: it does not know the browser's time zone. */
const SERVER_RENDER_TIME_ZONE = 'UTC';
const dayMonthYearInServerZone = new Intl.DateTimeFormat('en-US', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  timeZone: SERVER_RENDER_TIME_ZONE,
});

export type DisplayTimeZone = 'browser' | 'server-render';

/**
 * Where a page that may be server-rendered writes its dates: in UTC on the server and in the
 * browser's render that takes the server's HTML over (both must write the same text), then in the
 * browser's own time zone.
 */
export function useDisplayTimeZone(): DisplayTimeZone {
  return useHydrated() ? 'browser' : 'server-render';
}

const hoursMinutes = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

type DateInput = Date | number | string;

/** 05 Jan 2026 */
export function formatDate(value: DateInput, timeZone: DisplayTimeZone = 'browser'): string {
  const format = timeZone === 'browser' ? dayMonthYear : dayMonthYearInServerZone;
  const parts = Object.fromEntries(
    format.formatToParts(new Date(value)).map(({ type, value: part }) => [type, part]),
  );
  return `${parts.day} ${parts.month} ${parts.year}`;
}

/** 09:07 */
export function formatTime(value: DateInput): string {
  return hoursMinutes.format(new Date(value));
}
