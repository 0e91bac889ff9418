import { beforeAll, describe, expect, it } from 'vitest';
import { addMessages, t } from '../../lib/i18n';
import { enUsageAlerts } from '../../locales/en-usage-alerts';
import { noticeForTest } from './usage-alert-notice-for-test';
import { describeAlert, keepsOldLowBalanceRule, noticeMessage } from './usage-alert-text';

beforeAll(() => addMessages(enUsageAlerts));

const said = ({ key, values }: ReturnType<typeof noticeMessage>) => t(key, values);
const notice = noticeForTest;

describe('usage alerts in words', () => {
  it('describes each kind of threshold with the figures formatted as the billing pages do', () => {
    expect(said(describeAlert({ kind: 'mau_percent', value: 80 }, 10_000))).toBe(
      '80% of the license (8,000 MAU)',
    );
    expect(said(describeAlert({ kind: 'mau_percent', value: 100 }, 5))).toBe('100% of the license (5 MAU)');
    // 80 % of 7 is 5.6 users: the alert is reached at the sixth.
    expect(said(describeAlert({ kind: 'mau_percent', value: 80 }, 7))).toBe('80% of the license (6 MAU)');
    expect(said(describeAlert({ kind: 'mau', value: 50_000 }, 0))).toBe('50,000 monthly active users');
    expect(said(describeAlert({ kind: 'projected_charge', value: 40_000 }, 0))).toBe(
      'Projected charge USD 400.00',
    );
    expect(said(describeAlert({ kind: 'low_balance', value: 123_456_789 }, 0))).toBe(
      'Balance below USD 1,234,567.89',
    );
  });

  it('says what each notice crossed, the licence share floored', () => {
    expect(
      said(noticeMessage(notice({ kind: 'mau_percent', threshold: 80, figure: 8_299, licenseMau: 10_000 }))),
    ).toBe('You have used 82% of your 10,000-MAU license this month.');
    expect(
      said(noticeMessage(notice({ kind: 'mau_percent', threshold: 100, figure: 9_999, licenseMau: 9_999 }))),
    ).toBe('You have used 100% of your 9,999-MAU license this month.');
    expect(said(noticeMessage(notice({ kind: 'mau', threshold: 50_000, figure: 52_000 })))).toBe(
      'Your monthly active users reached 52,000 this month, over your alert of 50,000.',
    );
    expect(said(noticeMessage(notice({ kind: 'projected_charge', threshold: 40_000, figure: 41_250 })))).toBe(
      'This month’s projected charge of USD 412.50 is over your alert of USD 400.00.',
    );
    expect(said(noticeMessage(notice({ kind: 'low_balance', threshold: 5_000, figure: 1_240 })))).toBe(
      'Your balance of USD 12.40 is below your alert of USD 50.00.',
    );
  });

  it('keeps the old low-balance rule for PAYG while no balance alert is set', () => {
    const settings = { recipients: [], defaults: true, licenseMau: 0 };
    expect(keepsOldLowBalanceRule({ ...settings, contractType: 'payg', alerts: [] })).toBe(true);
    expect(
      keepsOldLowBalanceRule({
        ...settings,
        contractType: 'payg',
        alerts: [{ kind: 'low_balance', value: 100 }],
      }),
    ).toBe(false);
    expect(keepsOldLowBalanceRule({ ...settings, contractType: 'flat_rate', alerts: [] })).toBe(false);
  });
});
