import type { MonthlyUsage } from '@portal/contracts';

/**
 * Line colours of the applications, in order, dark enough to stand out on white; past twelve
 * applications they repeat.
 */
export const SERIES_COLORS = [
  'blue.7',
  'teal.8',
  'orange.8',
  'grape.7',
  'cyan.8',
  'pink.7',
  'lime.9',
  'indigo.7',
  'yellow.9',
  'red.8',
  'violet.7',
  'green.8',
] as const;

/** One application's line: `key` names its figures in the chart's rows. */
export interface UsageSeries {
  key: string;
  applicationId: string;
  /** Its name, with its id when another application has the same name. */
  label: string;
  color: (typeof SERIES_COLORS)[number];
}

export interface UsageMonth {
  /** Apr 2025 */
  label: string;
  /** Each series' monthly active users, in the order of the series. */
  mau: number[];
  total: number;
}

/** The chart of the last 12 months and the table that is its text alternative. */
export interface MonthlyUsageView {
  series: UsageSeries[];
  /** Oldest first. */
  months: UsageMonth[];
  /** The first and the last month's labels. */
  from: string;
  to: string;
}

const monthFormat = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A month (`YYYY-MM`) as the chart and its table name it: Apr 2025. */
export function monthLabel(month: string): string {
  const [year = 0, monthNumber = 1] = month.split('-').map(Number);
  return monthFormat.format(Date.UTC(year, monthNumber - 1, 1));
}

/**
 * The answer of GET /api/v1/accounts/usages/monthly as the chart shows it: a line per application
 * in the order answered, and per month each line's figure (0 where a month does not list it).
 */
export function monthlyUsageView(answer: readonly MonthlyUsage[]): MonthlyUsageView {
  const names = new Map<string, string>();
  for (const month of answer) {
    for (const application of month.applications) {
      if (!names.has(application.applicationId)) names.set(application.applicationId, application.name);
    }
  }
  const nameCounts = new Map<string, number>();
  for (const name of names.values()) nameCounts.set(name, (nameCounts.get(name) ?? 0) + 1);
  const series = [...names].map(([applicationId, name], index) => ({
    key: `application${index}`,
    applicationId,
    label: (nameCounts.get(name) ?? 0) > 1 ? `${name} (${applicationId})` : name,
    color: SERIES_COLORS[index % SERIES_COLORS.length]!,
  }));
  const months = answer.map((month) => {
    const mau = series.map(
      ({ applicationId }) =>
        month.applications.find((application) => application.applicationId === applicationId)?.mau ?? 0,
    );
    return { label: monthLabel(month.month), mau, total: mau.reduce((sum, value) => sum + value, 0) };
  });
  return { series, months, from: months[0]?.label ?? '', to: months.at(-1)?.label ?? '' };
}

/** The chart's rows: the month's label under `month`, and each series' figure under its key. */
export function chartRows(view: MonthlyUsageView): Record<string, string | number>[] {
  return view.months.map((month) => ({
    month: month.label,
    ...Object.fromEntries(view.series.map((series, index) => [series.key, month.mau[index] ?? 0])),
  }));
}
