import { describe, expect, it } from 'vitest';
import {
  isOverLicense,
  licenseUsagePercent,
  monthlyActiveUsers,
  subscriptionPlanLabel,
  subscriptionView,
} from './plan-usage';
import type { ContractRecord } from '@portal/contracts';

describe('subscriptionView', () => {
  it('shows the PAYG view or the flat-rate licence', () => {
    expect(subscriptionView([{ type: 'payg', license: 0, supportPlan: '' }])).toEqual({ kind: 'payg' });
    expect(subscriptionView([{ type: 'flat_rate', license: 5000, supportPlan: 'Premium' }])).toEqual({
      kind: 'flat_rate',
      license: 5000,
      supportPlan: 'Premium',
    });
  });

  it('is an error for an unknown or missing contract', () => {
    const enterprise = { type: 'enterprise', license: 0, supportPlan: '' } as unknown as ContractRecord;
    expect(subscriptionView([enterprise])).toEqual({ kind: 'unknown', type: 'enterprise' });
    expect(subscriptionView([])).toEqual({ kind: 'unknown', type: null });
  });
});

describe('monthlyActiveUsers', () => {
  it('reads the MAU record, or none before the first import', () => {
    expect(monthlyActiveUsers([{ type: 'mau', usage: 1200, updatedAt: '2026-03-02T10:00:00.000Z' }])).toEqual(
      {
        usage: 1200,
        updatedAt: '2026-03-02T10:00:00.000Z',
      },
    );
    expect(monthlyActiveUsers([])).toEqual({ usage: 0, updatedAt: null });
  });
});

describe('licence usage', () => {
  it.each([
    [0, 1000, 0, false],
    [500, 1000, 50, false],
    [999, 1000, 99.9, false],
    [1000, 1000, 100, true],
    [1500, 1000, 150, true],
    [0, 0, 0, false],
    [10, 0, 100, true],
  ])('%s MAU of a %s licence is %s %%, over: %s', (usage, license, percent, over) => {
    expect(licenseUsagePercent(usage, license)).toBeCloseTo(percent);
    expect(isOverLicense(licenseUsagePercent(usage, license))).toBe(over);
  });
});

describe('subscriptionPlanLabel', () => {
  it.each([
    ['2024-08-29T23:59:59.000Z', 'Advance'],
    ['2024-08-30T00:00:00.000Z', 'Advance'],
    ['2024-08-30T23:59:59.000Z', 'Advance'],
    ['2024-08-31T00:00:00.000Z', 'Social Core'],
    ['2026-01-15T08:00:00.000Z', 'Social Core'],
  ])('an app created at %s shows %s', (createdAt, label) => {
    expect(subscriptionPlanLabel({ createdAt }, 'Social', 'Advance')).toBe(label);
  });
});
