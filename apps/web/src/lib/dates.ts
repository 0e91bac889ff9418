/**
 * Dates as the portal shows them (§2: 'dd MMM yyyy' and 'HH:mm'), in the browser's time zone. The
 * browser's own Intl formats them, so no date library loads with the pages that show dates.
 */
const dayMonthYear = new Intl.DateTimeFormat('en-US', { day: '2-digit', month: 'short', year: 'numeric' });
const hoursMinutes = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

type DateInput = Date | number | string;

/** 05 Jan 2026 */
export function formatDate(value: DateInput): string {
  const parts = Object.fromEntries(
    dayMonthYear.formatToParts(new Date(value)).map(({ type, value: part }) => [type, part]),
  );
  return `${parts.day} ${parts.month} ${parts.year}`;
}

/** 09:07 */
export function formatTime(value: DateInput): string {
  return hoursMinutes.format(new Date(value));
}
