import { padTransactionId } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import {
  billingCycleBefore,
  billingCycleName,
  billingCycleOf,
  centsToUsd,
  flatRateInvoice,
  formatUnitPriceUsd,
  formatUsd,
  lineAmountCents,
  paygCharge,
  ratePercentToBasisPoints,
  taxCents,
  trialCredit,
  usdToCents,
  type FlatRateContract,
} from './billing-rules.ts';

describe('a line: quantity × unit price in millionths of a dollar, rounded half-up to the cent', () => {
  it.each([
    { quantity: 1000, unitPriceMicroUsd: 60_000, cents: 6000 },
    { quantity: 1, unitPriceMicroUsd: 140_000, cents: 14 },
    { quantity: 0, unitPriceMicroUsd: 90_000, cents: 0 },
    { quantity: 1, unitPriceMicroUsd: 45_000, cents: 5 }, // 4.5 cents
    { quantity: 3, unitPriceMicroUsd: 15_000, cents: 5 }, // 4.5 cents
    { quantity: 1, unitPriceMicroUsd: 44_999, cents: 4 }, // 4.4999 cents
    { quantity: 1, unitPriceMicroUsd: 5_000, cents: 1 }, // half a cent
    { quantity: 1, unitPriceMicroUsd: 4_999, cents: 0 },
    { quantity: 7, unitPriceMicroUsd: 12_345, cents: 9 }, // 8.6415 cents
    { quantity: 1_000_000_000, unitPriceMicroUsd: 140_000, cents: 14_000_000_000 },
  ])('$quantity at $unitPriceMicroUsd µUSD → $cents cents', ({ quantity, unitPriceMicroUsd, cents }) => {
    expect(lineAmountCents(quantity, unitPriceMicroUsd)).toBe(cents);
  });

  it.each([
    { quantity: -1, unitPriceMicroUsd: 60_000 },
    { quantity: 1.5, unitPriceMicroUsd: 60_000 },
    { quantity: 1, unitPriceMicroUsd: 0.06 },
    { quantity: Number.MAX_SAFE_INTEGER, unitPriceMicroUsd: 140_000 },
  ])('refuses $quantity at $unitPriceMicroUsd µUSD', ({ quantity, unitPriceMicroUsd }) => {
    expect(() => lineAmountCents(quantity, unitPriceMicroUsd)).toThrow(RangeError);
  });
});

describe('a PAYG month', () => {
  const app = (plan: 'basic' | 'advance' | 'max', mau: number) => ({
    applicationId: `app-${plan}`,
    name: `App ${plan}`,
    plan,
    mau,
  });

  it.each([
    { usages: [app('basic', 1000)], lines: [6000], totalCents: 6000 },
    { usages: [app('advance', 1000)], lines: [9000], totalCents: 9000 },
    { usages: [app('max', 1000)], lines: [14000], totalCents: 14000 },
    { usages: [app('basic', 1), app('advance', 1), app('max', 1)], lines: [6, 9, 14], totalCents: 29 },
    { usages: [app('advance', 0), app('max', 250)], lines: [0, 3500], totalCents: 3500 },
    { usages: [], lines: [], totalCents: 0 },
  ])('$usages.length applications → lines $lines, total $totalCents', ({ usages, lines, totalCents }) => {
    const charge = paygCharge(usages);
    expect(charge.lines.map((line) => line.amountCents)).toEqual(lines);
    expect(charge.totalCents).toBe(totalCents);
  });

  it('lists every application with its plan price per MAU', () => {
    const { lines } = paygCharge([app('basic', 10), app('max', 0)]);
    expect(lines).toEqual([
      { ...app('basic', 10), unitPriceMicroUsd: 60_000, amountCents: 60 },
      { ...app('max', 0), unitPriceMicroUsd: 140_000, amountCents: 0 },
    ]);
  });
});

describe('the trial credit of a month, pro rata by the UTC days the trial touches', () => {
  const at = (iso: string) => new Date(iso);
  it.each([
    { case: 'no trial', cycle: '2025-03', trial: null, charge: 3100, days: [0, 31], credit: 0 },
    {
      case: 'trial from the first of the month ending at midnight',
      cycle: '2025-03',
      trial: { startAt: at('2025-03-01T00:00:00Z'), endAt: at('2025-03-16T00:00:00Z') },
      charge: 3100,
      days: [15, 31],
      credit: 1500,
    },
    {
      case: 'set up mid-month, trial ends in it: days before the setup are not billable',
      cycle: '2025-03',
      trial: { startAt: at('2025-03-10T10:00:00Z'), endAt: at('2025-03-25T10:00:00Z') },
      charge: 2200,
      days: [16, 22],
      credit: 1600,
    },
    {
      case: 'whole month inside the trial',
      cycle: '2025-03',
      trial: { startAt: at('2025-03-20T10:00:00Z'), endAt: at('2025-04-04T10:00:00Z') },
      charge: 1234,
      days: [12, 12],
      credit: 1234,
    },
    {
      case: 'trial ends early in the month',
      cycle: '2025-04',
      trial: { startAt: at('2025-03-20T10:00:00Z'), endAt: at('2025-04-04T10:00:00Z') },
      charge: 3000,
      days: [4, 30],
      credit: 400,
    },
    {
      case: 'month after the trial',
      cycle: '2025-05',
      trial: { startAt: at('2025-03-20T10:00:00Z'), endAt: at('2025-04-04T10:00:00Z') },
      charge: 3000,
      days: [0, 31],
      credit: 0,
    },
    {
      case: 'trial ending at midnight on the first does not touch the month',
      cycle: '2025-04',
      trial: { startAt: at('2025-03-17T00:00:00Z'), endAt: at('2025-04-01T00:00:00Z') },
      charge: 3000,
      days: [0, 30],
      credit: 0,
    },
    {
      case: 'half a cent rounds up',
      cycle: '2025-03',
      trial: { startAt: at('2025-03-30T00:00:00Z'), endAt: at('2025-03-31T00:00:00Z') },
      charge: 3,
      days: [1, 2],
      credit: 2,
    },
    {
      case: 'less than half a cent rounds down',
      cycle: '2025-02',
      trial: { startAt: at('2025-02-01T00:00:00Z'), endAt: at('2025-02-02T00:00:00Z') },
      charge: 13,
      days: [1, 28],
      credit: 0,
    },
    {
      case: 'leap February',
      cycle: '2024-02',
      trial: { startAt: at('2024-01-20T00:00:00Z'), endAt: at('2024-02-04T00:00:00Z') },
      charge: 2900,
      days: [3, 29],
      credit: 300,
    },
  ])('$case', ({ cycle, trial, charge, days, credit }) => {
    expect(trialCredit(charge, cycle, trial)).toEqual({
      trialDays: days[0],
      billableDays: days[1],
      creditCents: credit,
    });
  });

  it.each(['2025-13', '2025-3', 'March'])('refuses the billing cycle %s', (cycle) => {
    expect(() => trialCredit(100, cycle, null)).toThrow(RangeError);
  });
});

describe('tax at a rate in hundredths of a percent, rounded up to the cent', () => {
  it.each([
    { amount: 1000, rate: 700, tax: 70 },
    { amount: 1001, rate: 700, tax: 71 }, // 70.07
    { amount: 333, rate: 1000, tax: 34 }, // 33.3
    { amount: 1, rate: 1, tax: 1 }, // 0.0001
    { amount: 49900, rate: 725, tax: 3618 }, // 3617.75
    { amount: 49900, rate: 700, tax: 3493 },
    { amount: 10000, rate: 0, tax: 0 },
    { amount: 0, rate: 2000, tax: 0 },
  ])('$amount cents at $rate bp → $tax', ({ amount, rate, tax }) => {
    expect(taxCents(amount, rate)).toBe(tax);
  });

  it.each([
    { percent: '7', basisPoints: 700 },
    { percent: '7.5', basisPoints: 750 },
    { percent: '7.25', basisPoints: 725 },
    { percent: '0.00', basisPoints: 0 },
    { percent: '100.00', basisPoints: 10000 },
  ])('reads the stored rate $percent as $basisPoints bp', ({ percent, basisPoints }) => {
    expect(ratePercentToBasisPoints(percent)).toBe(basisPoints);
  });

  it.each(['7.255', '-1', 'seven', ''])('refuses the rate %j', (percent) => {
    expect(() => ratePercentToBasisPoints(percent)).toThrow(RangeError);
  });
});

describe('a flat-rate month', () => {
  const contract: FlatRateContract = {
    licenseFeeCents: 49_900,
    licenseMau: 10_000,
    overagePriceMicroUsd: 90_000,
    supportPlanFeeCents: 0,
  };
  it.each([
    {
      case: 'below the licence',
      contract,
      mau: 8000,
      rate: 0,
      components: [{ kind: 'license_fee', quantity: 1, amountCents: 49_900 }],
      totals: [49_900, 0, 49_900],
    },
    {
      case: 'exactly the licence',
      contract,
      mau: 10_000,
      rate: 0,
      components: [{ kind: 'license_fee', quantity: 1, amountCents: 49_900 }],
      totals: [49_900, 0, 49_900],
    },
    {
      case: 'above the licence',
      contract,
      mau: 12_500,
      rate: 0,
      components: [
        { kind: 'license_fee', quantity: 1, amountCents: 49_900 },
        { kind: 'mau_overage', quantity: 2500, amountCents: 22_500 },
      ],
      totals: [72_400, 0, 72_400],
    },
    {
      case: 'with a support plan and tax rounded up',
      contract: { ...contract, supportPlanFeeCents: 10_000 },
      mau: 10_001,
      rate: 725,
      components: [
        { kind: 'license_fee', quantity: 1, amountCents: 49_900 },
        { kind: 'mau_overage', quantity: 1, amountCents: 9 },
        { kind: 'support_plan', quantity: 1, amountCents: 10_000 },
      ],
      totals: [59_909, 4344, 64_253], // tax 4343.4025
    },
    {
      case: 'overage at a sub-cent price rounds half-up',
      contract: { ...contract, licenseFeeCents: 0, licenseMau: 0, overagePriceMicroUsd: 45_000 },
      mau: 3,
      rate: 0,
      components: [
        { kind: 'license_fee', quantity: 1, amountCents: 0 },
        { kind: 'mau_overage', quantity: 3, amountCents: 14 },
      ],
      totals: [14, 0, 14], // 13.5 cents
    },
  ])('$case', ({ contract, mau, rate, components, totals }) => {
    expect(flatRateInvoice(contract, mau, rate)).toEqual({
      components,
      subtotalCents: totals[0],
      taxCents: totals[1],
      totalCents: totals[2],
    });
  });
});

describe('amounts and ids as shown', () => {
  it.each([
    { cents: 0, text: '0.00' },
    { cents: 5, text: '0.05' },
    { cents: 99, text: '0.99' },
    { cents: -5, text: '-0.05' },
    { cents: 123_456, text: '1,234.56' },
    { cents: 100_000_000, text: '1,000,000.00' },
  ])('$cents cents read $text USD', ({ cents, text }) => {
    expect(formatUsd(cents)).toBe(text);
  });

  it.each([
    { microUsd: 60_000, text: '0.06' },
    { microUsd: 140_000, text: '0.14' },
    { microUsd: 100_000, text: '0.10' },
    { microUsd: 45_000, text: '0.045' },
    { microUsd: 1, text: '0.000001' },
    { microUsd: 1_000_000, text: '1.00' },
  ])('the unit price $microUsd µUSD reads $text USD', ({ microUsd, text }) => {
    expect(formatUnitPriceUsd(microUsd)).toBe(text);
  });

  it.each([
    { cents: 1234, usd: 12.34 },
    { cents: -7, usd: -0.07 },
    { cents: 0, usd: 0 },
  ])('$cents cents are answered as $usd USD', ({ cents, usd }) => {
    expect(centsToUsd(cents)).toBe(usd);
  });

  it.each([
    { usd: '499', cents: 49_900 },
    { usd: '499.5', cents: 49_950 },
    { usd: '499.05', cents: 49_905 },
    { usd: '0.01', cents: 1 },
    { usd: ' 50.00 ', cents: 5000 },
    // 0.29 × 100 is 28.999999999999996 in binary floating point.
    { usd: '0.29', cents: 29 },
  ])('$usd USD typed by an operator is $cents cents', ({ usd, cents }) => {
    expect(usdToCents(usd)).toBe(cents);
  });

  it.each(['', '1.234', '-1', '1e3', '1,000.00', '.5', '99999999999999999999'])(
    'refuses %j as an amount in USD',
    (usd) => {
      expect(() => usdToCents(usd)).toThrow(RangeError);
    },
  );

  it.each([
    { sequence: 1, id: '000000001' },
    { sequence: 123_456_789, id: '123456789' },
    { sequence: 1_234_567_890, id: '1234567890' },
  ])('transaction $sequence is $id', ({ sequence, id }) => {
    expect(padTransactionId(sequence)).toBe(id);
  });

  it.each([0, -1, 1.5])('refuses the transaction sequence %s', (sequence) => {
    expect(() => padTransactionId(sequence)).toThrow(RangeError);
  });
});

describe('billing cycles of a moment, in UTC', () => {
  it.each([
    { at: '2026-03-31T23:59:59.999Z', cycle: '2026-03', before: '2026-02', twelveBefore: '2025-03' },
    { at: '2026-01-01T00:00:00.000Z', cycle: '2026-01', before: '2025-12', twelveBefore: '2025-01' },
    // Late on 31 March in UTC−10 is already April in UTC, and the cycle follows UTC.
    { at: '2026-03-31T20:00:00.000-10:00', cycle: '2026-04', before: '2026-03', twelveBefore: '2025-04' },
  ])('$at is in $cycle, the month before is $before', ({ at, cycle, before, twelveBefore }) => {
    const date = new Date(at);
    expect(billingCycleOf(date)).toBe(cycle);
    expect(billingCycleBefore(date)).toBe(before);
    expect(billingCycleBefore(date, 12)).toBe(twelveBefore);
    expect(billingCycleBefore(date, 0)).toBe(cycle);
  });
});

describe('billingCycleName', () => {
  it('names a cycle by its month and year, as Intl writes them in English', () => {
    const intl = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
    for (let year = 2024; year <= 2027; year += 1)
      for (let month = 1; month <= 12; month += 1) {
        const cycle = `${year}-${String(month).padStart(2, '0')}`;
        expect(billingCycleName(cycle)).toBe(intl.format(Date.UTC(year, month - 1, 1)));
      }
    expect(billingCycleName('2025-03')).toBe('March 2025');
  });

  it('refuses what is not a YYYY-MM cycle', () => {
    expect(() => billingCycleName('2025-13')).toThrow(RangeError);
    expect(() => billingCycleName('March 2025')).toThrow(RangeError);
  });
});
