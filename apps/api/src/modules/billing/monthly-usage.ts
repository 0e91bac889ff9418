import type { MonthlyUsage } from '@portal/contracts';
import { billingCycleBefore } from './billing-rules.ts';

/** An imported monthly figure of one application, with its current name. */
export interface ImportedMonthlyUsage {
  applicationId: string;
  name: string;
  billingCycle: string;
  mau: number;
}

/** The `count` months up to and including the one `now` falls in (UTC), oldest first, as `YYYY-MM`. */
export function monthsUpTo(now: Date, count: number): string[] {
  return Array.from({ length: count }, (_, index) => billingCycleBefore(now, count - 1 - index));
}

/**
 * Each month's usage per application (decision 017): every application with a figure in any of
 * the months, in the order the rows first name them, and 0 in a month the regions reported none
 * for, as the monthly bill counts it. Figures of other months are left out.
 */
export function monthlyUsageByApplication(
  months: readonly string[],
  rows: readonly ImportedMonthlyUsage[],
): MonthlyUsage[] {
  const wanted = new Set(months);
  const applications = new Map<string, { name: string; mauByMonth: Map<string, number> }>();
  for (const row of rows) {
    if (!wanted.has(row.billingCycle)) continue;
    const application = applications.get(row.applicationId) ?? { name: row.name, mauByMonth: new Map() };
    application.mauByMonth.set(row.billingCycle, row.mau);
    applications.set(row.applicationId, application);
  }
  return months.map((month) => ({
    month,
    applications: [...applications].map(([applicationId, { name, mauByMonth }]) => ({
      applicationId,
      name,
      mau: mauByMonth.get(month) ?? 0,
    })),
  }));
}
