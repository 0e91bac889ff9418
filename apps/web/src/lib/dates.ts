import { useHydrated } from './hydration';

/**
 * Dates as the portal shows them (§2: 'dd MMM yyyy' and 'HH:mm'), in the browser's time zone, from
 * the Date's own fields rather than Intl: the first Intl formatter a page makes loads the browser's
 * locale data, one task of 40–150 ms at CPU 4×, which held up the take-over of every signed-in page
 * that shows a date (decision 045). The portal writes English only, so the months are a table.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const twoDigits = (value: number) => String(value).padStart(2, '0');

export type DisplayTimeZone = 'browser' | 'server-render';

/**
 * Where a page that may be server-rendered writes its dates: in UTC on the server and in the
 * browser's render that takes the server's HTML over (both must write the same text), then in the
 * browser's own time zone.
 */
export function useDisplayTimeZone(): DisplayTimeZone {
  return useHydrated() ? 'browser' : 'server-render';
}

type DateInput = Date | number | string;

/** `value` as a Date, refusing one that names no moment, as Intl's formatters do. */
function toDate(value: DateInput): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not a date: ${String(value)}`);
  return date;
}

/** 05 Jan 2026; in UTC on the server (it does not know the browser's time zone) and while taking its page over. */
export function formatDate(value: DateInput, timeZone: DisplayTimeZone = 'browser'): string {
  const date = toDate(value);
  const [day, month, year] =
    timeZone === 'browser'
      ? [date.getDate(), date.getMonth(), date.getFullYear()]
      : [date.getUTCDate(), date.getUTCMonth(), date.getUTCFullYear()];
  return `${twoDigits(day)} ${MONTHS[month]} ${year}`;
}

/** 09:07 */
export function formatTime(value: DateInput): string {
  const date = toDate(value);
  return `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;
}
