import type { UsageAlert, UsageAlertNotice, UsageAlertSettingsResponse } from '@portal/contracts';
import type { TranslationKey, TranslationValues } from '../../lib/i18n';

/*
 * What usage alerts say, for the section and the banner. Only types come from the contracts, so the
 * banner on the application list loads no schema library (decision 012).
 */

/** The section's anchor on Subscription and licenses: the banner links to it. */
export const USAGE_ALERTS_SECTION_ID = 'usage-alerts';

/** A count as the subscription page shows it: 50,000 */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

const usdAmount = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** USD cents as the amount after "USD": 1,412.50 */
export function formatCents(cents: number): string {
  return usdAmount.format(cents / 100);
}

/** The fewest monthly active users that reach `percent` of the licence. */
export function licenseMauAt(percent: number, licenseMau: number): number {
  return Math.ceil((licenseMau * percent) / 100);
}

/** A threshold in words: "80% of the license (8,000 MAU)", "Balance below USD 50.00". */
export function describeAlert(
  { kind, value }: UsageAlert,
  licenseMau: number,
): { key: TranslationKey; values: TranslationValues } {
  switch (kind) {
    case 'mau':
      return { key: 'usageAlerts.describe.mau', values: { mau: formatCount(value) } };
    case 'mau_percent':
      return {
        key: 'usageAlerts.describe.mau_percent',
        values: { percent: value, mau: formatCount(licenseMauAt(value, licenseMau)) },
      };
    case 'projected_charge':
    case 'low_balance':
      return { key: `usageAlerts.describe.${kind}`, values: { amount: formatCents(value) } };
  }
}

/** The banner's sentence for a threshold crossed this month. */
export function noticeMessage(notice: UsageAlertNotice): { key: TranslationKey; values: TranslationValues } {
  const { kind, figure, threshold, licenseMau } = notice;
  switch (kind) {
    case 'mau_percent':
      return {
        key: 'usageAlerts.notice.mau_percent',
        values: {
          // Floored, so a licence not yet used up never reads as 100 %.
          percent: licenseMau > 0 ? Math.floor((figure * 100) / licenseMau) : threshold,
          license: formatCount(licenseMau),
        },
      };
    case 'mau':
      return {
        key: 'usageAlerts.notice.mau',
        values: { figure: formatCount(figure), threshold: formatCount(threshold) },
      };
    case 'projected_charge':
    case 'low_balance':
      return {
        key: `usageAlerts.notice.${kind}`,
        values: { figure: formatCents(figure), threshold: formatCents(threshold) },
      };
  }
}

/** A PAYG organisation without a balance alert is still warned by the old rule (decision 044). */
export function keepsOldLowBalanceRule(settings: UsageAlertSettingsResponse): boolean {
  return settings.contractType === 'payg' && !settings.alerts.some(({ kind }) => kind === 'low_balance');
}
