import type { UsageAlertSettingsResponse } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import {
  alertValueOf,
  formValuesOf,
  recipientTagsFrom,
  usageAlertsFieldErrors,
  usageAlertsFormSchema,
  type UsageAlertsFormValues,
} from './usage-alerts-form-rules';

const payg: UsageAlertSettingsResponse = {
  alerts: [
    { kind: 'mau', value: 50_000 },
    { kind: 'projected_charge', value: 40_000 },
    { kind: 'low_balance', value: 5_029 },
  ],
  recipients: ['finance@acme.io'],
  defaults: false,
  contractType: 'payg',
  licenseMau: 0,
};

/** The form's messages by field, or the settings it would send. */
function check(values: UsageAlertsFormValues, contractType: 'payg' | 'flat_rate' = 'payg') {
  const result = usageAlertsFormSchema(contractType).safeParse(values);
  if (result.success) return { sent: result.data };
  return {
    messages: Object.fromEntries(result.error.issues.map(({ path, message }) => [path.join('.'), message])),
  };
}

describe('the usage alerts form', () => {
  it('shows money in USD with its cents and counts as they are', () => {
    expect(formValuesOf(payg)).toEqual({
      alerts: [
        { kind: 'mau', value: '50000' },
        { kind: 'projected_charge', value: '400.00' },
        { kind: 'low_balance', value: '50.29' },
      ],
      recipients: ['finance@acme.io'],
    });
  });

  it('reads USD amounts as whole cents, digit by digit', () => {
    expect(alertValueOf('projected_charge', '400')).toBe(40_000);
    expect(alertValueOf('projected_charge', ' 412.5 ')).toBe(41_250);
    expect(alertValueOf('low_balance', '0.29')).toBe(29);
    expect(alertValueOf('low_balance', '1,000,000.07')).toBe(100_000_007);
    expect(alertValueOf('low_balance', '12.345')).toBeNull();
    expect(alertValueOf('low_balance', '-5')).toBeNull();
    expect(alertValueOf('low_balance', '1,00.00')).toBeNull();
    expect(alertValueOf('low_balance', '$5')).toBeNull();
  });

  it('reads counts and percentages as whole numbers only', () => {
    expect(alertValueOf('mau', '52,000')).toBe(52_000);
    expect(alertValueOf('mau_percent', '80')).toBe(80);
    expect(alertValueOf('mau', '8000.5')).toBeNull();
    expect(alertValueOf('mau_percent', '80%')).toBeNull();
  });

  it('sends the whole set with values in MAU, percent and cents', () => {
    expect(check(formValuesOf(payg))).toEqual({
      sent: {
        alerts: [
          { kind: 'mau', value: 50_000 },
          { kind: 'projected_charge', value: 40_000 },
          { kind: 'low_balance', value: 5_029 },
        ],
        recipients: ['finance@acme.io'],
      },
    });
  });

  it('puts each refusal under its row', () => {
    expect(
      check({
        alerts: [
          { kind: 'mau', value: '' },
          { kind: 'mau', value: '1.5' },
          { kind: 'low_balance', value: '0.00' },
          { kind: 'low_balance', value: '10.001' },
          { kind: 'mau', value: '1,000,000,001' },
          { kind: 'projected_charge', value: '400' },
          { kind: 'projected_charge', value: '400.00' },
        ],
        recipients: [],
      }),
    ).toEqual({
      messages: {
        'alerts.0.value': 'usageAlerts.error.required',
        'alerts.1.value': 'usageAlerts.error.wholeNumber',
        'alerts.2.value': 'usageAlerts.error.amount',
        'alerts.3.value': 'usageAlerts.error.amount',
        'alerts.4.value': 'usageAlerts.error.tooLarge',
        'alerts.6.value': 'usageAlerts.error.twice',
      },
    });
  });

  it('refuses a kind the contract has no figure for, and a percentage above the largest', () => {
    expect(check({ alerts: [{ kind: 'mau_percent', value: '80' }], recipients: [] }, 'payg')).toEqual({
      messages: { 'alerts.0.kind': 'usageAlerts.error.notForContract' },
    });
    expect(check({ alerts: [{ kind: 'mau_percent', value: '1001' }], recipients: [] }, 'flat_rate')).toEqual({
      messages: { 'alerts.0.value': 'usageAlerts.error.tooLarge' },
    });
    expect(check({ alerts: [{ kind: 'mau_percent', value: '1000' }], recipients: [] }, 'flat_rate')).toEqual({
      sent: { alerts: [{ kind: 'mau_percent', value: 1000 }], recipients: [] },
    });
  });

  it('refuses an address that is not one, and keeps at most ten, lower-cased, once each', () => {
    expect(check({ alerts: [], recipients: ['ops@acme.io', 'not-an-address'] })).toEqual({
      messages: { recipients: 'usageAlerts.error.email' },
    });
    expect(recipientTagsFrom(['Ops@Acme.io', 'ops@acme.io; cfo@acme.io'])).toEqual([
      'ops@acme.io',
      'cfo@acme.io',
    ]);
    expect(recipientTagsFrom([Array.from({ length: 12 }, (_, i) => `p${i}@acme.io`).join(',')])).toHaveLength(
      10,
    );
  });

  it("puts the server's refusals under the fields it names", () => {
    const refusal = (body: ConstructorParameters<typeof ApiError>[0]) =>
      usageAlertsFieldErrors(new ApiError(body));
    expect(
      refusal({
        status: 400,
        code: 'VALIDATION_ERROR',
        message: 'alerts.2.value: must be at most 1000',
        fields: [
          { field: 'alerts.2.value', message: 'must be at most 1000' },
          { field: 'alerts.3', message: 'is set twice' },
          { field: 'recipients.0', message: 'Invalid email address' },
          { field: 'body', message: 'Too many' },
        ],
        path: '/api/v1/usage-alerts',
      }),
    ).toEqual([
      { field: 'alerts.2.value', message: 'must be at most 1000' },
      { field: 'alerts.3.value', message: 'is set twice' },
      { field: 'recipients', message: 'Invalid email address' },
    ]);
    expect(
      refusal({
        status: 400,
        code: 'USAGE_ALERT_NOT_FOR_CONTRACT',
        message: "This alert does not apply to your organization's contract.",
        field: 'alerts.1.kind',
        path: '/api/v1/usage-alerts',
      }),
    ).toEqual([
      { field: 'alerts.1.kind', message: "This alert does not apply to your organization's contract." },
    ]);
    expect(
      refusal({
        status: 400,
        code: 'VALIDATION_ERROR',
        message: 'alerts.0.value: must be at most 1000',
        field: 'alerts.0.value',
        path: '/api/v1/usage-alerts',
      }),
    ).toEqual([{ field: 'alerts.0.value', message: 'must be at most 1000' }]);
    expect(usageAlertsFieldErrors(new Error('offline'))).toEqual([]);
  });
});
