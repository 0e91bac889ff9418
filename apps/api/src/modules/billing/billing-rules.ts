/**
 * The money rules of billing (docs/decisions/014-billing-rules.md) as pure functions. Amounts are
 * integer cents and prices integer millionths of a dollar; products are taken in bigint so no size
 * of usage can lose a cent, and each rounding happens once, where its rule says.
 */
import { BILLING_CYCLE_PATTERN, PLAN_PRICES_MICRO_USD, type PlanKey } from '@portal/contracts';
import { requireCount, requireSignedCents } from '../ledger/balance-settlement.ts';

const MICRO_USD_PER_CENT = 10_000n;
/** 100 % in hundredths of a percent, the unit tax rates are kept in here. */
const WHOLE_RATE_BASIS_POINTS = 10_000n;
const DAY_MS = 86_400_000;

function toCents(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('amount too large to count in cents');
  return Number(value);
}

/** numerator / denominator for non-negative operands, halves rounded up. */
function divideHalfUp(numerator: bigint, denominator: bigint): number {
  return toCents((2n * numerator + denominator) / (2n * denominator));
}

/** numerator / denominator for non-negative operands, any remainder rounded up. */
function divideUp(numerator: bigint, denominator: bigint): number {
  return toCents((numerator + denominator - 1n) / denominator);
}

/** A quantity at a unit price in millionths of a dollar, rounded half-up to the cent. */
export function lineAmountCents(quantity: number, unitPriceMicroUsd: number): number {
  const microUsd = requireCount(quantity, 'quantity') * requireCount(unitPriceMicroUsd, 'unit price');
  return divideHalfUp(microUsd, MICRO_USD_PER_CENT);
}

export interface ApplicationUsage {
  applicationId: string;
  name: string;
  plan: PlanKey;
  /** Monthly active users of the billed month. */
  mau: number;
}

/** A line of a PAYG charge: the usage it was given (with whatever else the caller keeps on it), priced. */
export type PaygLine<T extends ApplicationUsage = ApplicationUsage> = T & {
  unitPriceMicroUsd: number;
  amountCents: number;
};

export interface PaygCharge<T extends ApplicationUsage = ApplicationUsage> {
  lines: PaygLine<T>[];
  totalCents: number;
}

/**
 * A PAYG month's service charge: one line per application (those without users too, so the detail
 * lists every application), each its MAU × its plan's price rounded half-up to the cent; the total
 * is the sum of the rounded lines.
 */
export function paygCharge<T extends ApplicationUsage>(usages: readonly T[]): PaygCharge<T> {
  const lines = usages.map((usage) => {
    const unitPriceMicroUsd = PLAN_PRICES_MICRO_USD[usage.plan];
    return { ...usage, unitPriceMicroUsd, amountCents: lineAmountCents(usage.mau, unitPriceMicroUsd) };
  });
  return { lines, totalCents: lines.reduce((sum, line) => sum + line.amountCents, 0) };
}

/** Days since 1970-01-01 of the UTC day an instant falls on. */
function utcDay(epochMs: number): number {
  return Math.floor(epochMs / DAY_MS);
}

/** The billing cycle (`YYYY-MM`) a moment falls in, in UTC. */
export function billingCycleOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** The billing cycle `monthsBack` months before the one a moment falls in (the month before by default). */
export function billingCycleBefore(date: Date, monthsBack = 1): string {
  return billingCycleOf(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - monthsBack, 1)));
}

/** The year and month (1–12) of a `YYYY-MM` billing cycle. */
export function parseBillingCycle(cycle: string): { year: number; month: number } {
  if (!BILLING_CYCLE_PATTERN.test(cycle)) throw new RangeError(`billing cycle must be YYYY-MM, got ${cycle}`);
  const [year, month] = cycle.split('-').map(Number) as [number, number];
  return { year, month };
}

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** 'March 2025': a billing cycle as the invoice and the usage alert mails name it. */
export function billingCycleName(cycle: string): string {
  const { year, month } = parseBillingCycle(cycle);
  return `${MONTH_NAMES[month - 1]} ${year}`;
}

/** The first and last UTC day of a billing cycle. */
function cycleDays(cycle: string): { firstDay: number; lastDay: number } {
  const { year, month } = parseBillingCycle(cycle);
  return { firstDay: utcDay(Date.UTC(year, month - 1, 1)), lastDay: utcDay(Date.UTC(year, month, 1)) - 1 };
}

/** The trial: from the organisation's setup to its trialEndAt. */
export interface TrialPeriod {
  startAt: Date;
  endAt: Date;
}

export interface TrialCredit {
  /** Days of the cycle the trial touches. */
  trialDays: number;
  /** Days of the cycle from the trial's start (the organisation's first day) to the cycle's end. */
  billableDays: number;
  creditCents: number;
}

/**
 * The service credit covering a month's charge inside the trial. Usage is counted per month only,
 * so a month the trial ends in is shared pro rata by UTC days: every day the trial touches counts
 * as a trial day, and days before the trial began are not billable, so they count on neither side.
 * The credit is charge × trial days / billable days, rounded half-up to the cent.
 */
export function trialCredit(chargeCents: number, cycle: string, trial: TrialPeriod | null): TrialCredit {
  const charge = requireCount(chargeCents, 'charge');
  const { firstDay, lastDay } = cycleDays(cycle);
  if (!trial) return { trialDays: 0, billableDays: lastDay - firstDay + 1, creditCents: 0 };
  const billableFirstDay = Math.max(firstDay, utcDay(trial.startAt.getTime()));
  // The trial ends at an instant; the day it ends on is touched unless it ends exactly at midnight.
  const trialLastDay = Math.min(lastDay, utcDay(trial.endAt.getTime() - 1));
  const billableDays = Math.max(0, lastDay - billableFirstDay + 1);
  const trialDays = Math.max(0, trialLastDay - billableFirstDay + 1);
  const creditCents = billableDays === 0 ? 0 : divideHalfUp(charge * BigInt(trialDays), BigInt(billableDays));
  return { trialDays, billableDays, creditCents };
}

/** Tax on an amount at a rate in hundredths of a percent, rounded up to the cent (§5). */
export function taxCents(amountCents: number, rateBasisPoints: number): number {
  const taxed = requireCount(amountCents, 'amount') * requireCount(rateBasisPoints, 'tax rate');
  return divideUp(taxed, WHOLE_RATE_BASIS_POINTS);
}

/** A percentage as stored (NUMERIC(5,2), e.g. "7.25") in hundredths of a percent (725), exactly. */
export function ratePercentToBasisPoints(percent: string): number {
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(percent.trim());
  if (!match) throw new RangeError(`not a percentage with at most 2 decimals: ${percent}`);
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

export interface FlatRateContract {
  licenseFeeCents: number;
  /** Monthly active users the licence includes. */
  licenseMau: number;
  /** Price of each MAU above the licence: the contract's plan price. */
  overagePriceMicroUsd: number;
  supportPlanFeeCents: number;
}

export type FlatRateComponentKind = 'license_fee' | 'mau_overage' | 'support_plan';

export interface FlatRateComponent {
  kind: FlatRateComponentKind;
  quantity: number;
  amountCents: number;
}

export interface FlatRateInvoice {
  components: FlatRateComponent[];
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
}

/**
 * A flat-rate month's component-based invoice: the licence fee, the MAU above the licence at the
 * overage price (rounded half-up, only when there are any), the support plan fee (only when it
 * costs something), and tax on their sum at the billing country's rate, rounded up.
 */
export function flatRateInvoice(
  contract: FlatRateContract,
  mau: number,
  taxRateBasisPoints: number,
): FlatRateInvoice {
  const licenseMau = Number(requireCount(contract.licenseMau, 'licensed MAU'));
  const overageMau = Math.max(0, Number(requireCount(mau, 'MAU')) - licenseMau);
  const components: FlatRateComponent[] = [
    { kind: 'license_fee', quantity: 1, amountCents: Number(requireCount(contract.licenseFeeCents, 'fee')) },
  ];
  if (overageMau > 0) {
    const amountCents = lineAmountCents(overageMau, contract.overagePriceMicroUsd);
    components.push({ kind: 'mau_overage', quantity: overageMau, amountCents });
  }
  const supportPlanFeeCents = Number(requireCount(contract.supportPlanFeeCents, 'support plan fee'));
  if (supportPlanFeeCents > 0) {
    components.push({ kind: 'support_plan', quantity: 1, amountCents: supportPlanFeeCents });
  }
  const subtotalCents = components.reduce((sum, component) => sum + component.amountCents, 0);
  const tax = taxCents(subtotalCents, taxRateBasisPoints);
  return { components, subtotalCents, taxCents: tax, totalCents: subtotalCents + tax };
}

/** Cents as the USD amount the API answers (at most 2 decimals). */
export function centsToUsd(cents: number): number {
  return requireSignedCents(cents, 'amount') / 100;
}

/** An amount typed in USD ("499", "499.5", "499.05") as cents, read digit by digit so no float rounds it. */
export function usdToCents(amount: string): number {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) throw new RangeError('an amount in USD is digits with at most 2 decimals');
  return toCents(BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0')));
}

/** Cents as USD with 2 decimals and thousands separated: 123456 → "1,234.56", -5 → "-0.05". */
export function formatUsd(cents: number): string {
  const magnitude = Math.abs(requireSignedCents(cents, 'amount'));
  const dollars = String(Math.floor(magnitude / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}${dollars}.${String(magnitude % 100).padStart(2, '0')}`;
}

/** A price in millionths of a dollar as USD, with 2 to 6 decimals: 60000 → "0.06", 45000 → "0.045". */
export function formatUnitPriceUsd(microUsd: number): string {
  const micro = requireCount(microUsd, 'unit price');
  const decimals = String(micro % 1_000_000n)
    .padStart(6, '0')
    .replace(/0{1,4}$/, '');
  return `${micro / 1_000_000n}.${decimals}`;
}
