/**
 * Dates as the portal writes them everywhere (§2: 'dd MMM yyyy' and 'HH:mm'), on its pages and in
 * its documents, from the Date's own fields rather than Intl: in a browser the first Intl formatter
 * a page makes loads the locale data, one task of 40–150 ms at CPU 4× (decision 045), and Intl's
 * English short months differ between locales and ICU releases ('Sept' in en-GB). The portal writes
 * English only, so the months are a table.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** Where a date is read: the runtime's own time zone (a browser's is its user's), or UTC. */
export type DateZone = 'local' | 'utc';

export type DateInput = Date | number | string;

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** `value` as a Date, refusing one that names no moment, as Intl's formatters do. */
function toDate(value: DateInput): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not a date: ${String(value)}`);
  return date;
}

/** 05 Jan 2026 */
export function formatDayMonthYear(value: DateInput, zone: DateZone): string {
  const date = toDate(value);
  const [day, month, year] =
    zone === 'local'
      ? [date.getDate(), date.getMonth(), date.getFullYear()]
      : [date.getUTCDate(), date.getUTCMonth(), date.getUTCFullYear()];
  return `${twoDigits(day)} ${MONTHS[month]} ${year}`;
}

/** 09:07, in the runtime's own time zone. */
export function formatHoursMinutes(value: DateInput): string {
  const date = toDate(value);
  return `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;
}
