import { describe, expect, it } from 'vitest';
import { TopUpRequestSchema, topUpSummary } from './payments.ts';

const tiers = [
  { start: 1000, credit: 50 },
  { start: 5000, credit: 500 },
  { start: 10000, credit: 1500 },
];

describe('topUpSummary', () => {
  it.each([
    // amount, free-credit flag, tax %, free credit, subtotal, tax, total (cents)
    [999.99, true, 0, 0, 99_999, 0, 99_999],
    [1000, true, 0, 5_000, 95_000, 0, 95_000],
    [1000, false, 0, 0, 100_000, 0, 100_000],
    [4999.99, true, 9, 5_000, 494_999, 44_550, 539_549],
    [5000, true, 9, 50_000, 450_000, 40_500, 490_500],
    [25000, true, 20, 150_000, 2_350_000, 470_000, 2_820_000],
    [1, true, 9, 0, 100, 9, 109],
    // 101 cents × 7.25 % = 7.3225 cents: any remainder rounds up to a whole cent.
    [1.01, false, 7.25, 0, 101, 8, 109],
    [10.33, false, 19, 0, 1_033, 197, 1_230],
  ])(
    '%s USD, free credit %s, tax %s %%',
    (amount, freeCreditEnabled, taxRatePercent, free, sub, tax, total) => {
      expect(topUpSummary({ amount, tiers, freeCreditEnabled, taxRatePercent })).toEqual({
        amountCents: Math.round(amount * 100),
        freeCreditCents: free,
        subtotalCents: sub,
        taxCents: tax,
        totalCents: total,
      });
    },
  );

  it('takes the highest tier at or below the amount, whatever order the tiers come in', () => {
    const shuffled = [tiers[2]!, tiers[0]!, tiers[1]!];
    expect(
      topUpSummary({ amount: 7000, tiers: shuffled, freeCreditEnabled: true, taxRatePercent: 0 }),
    ).toMatchObject({ freeCreditCents: 50_000, subtotalCents: 650_000 });
  });
});

describe('TopUpRequestSchema', () => {
  it.each([
    [{ amount: 1, token: 'tok' }, true],
    [{ amount: 1000.5, paymentProfileId: 'p' }, true],
    [{ amount: 0.99, token: 'tok' }, false],
    [{ amount: 10.001, token: 'tok' }, false],
    [{ amount: 1_000_001, token: 'tok' }, false],
    [{ amount: 10 }, false],
    [{ amount: 10, token: 'tok', paymentProfileId: 'p' }, false],
    [{ amount: '10', token: 'tok' }, false],
  ])('%j is valid: %s', (body, valid) => {
    expect(TopUpRequestSchema.safeParse(body).success).toBe(valid);
  });
});
