/**
 * How a charge is paid from the prepaid balance (docs/decisions/014-billing-rules.md), the rule the
 * ledger applies whenever the balance pays: the monthly PAYG charge and the charges a top-up settles.
 */
import type { TransactionStatus } from '@portal/contracts';

/** A count or an amount that cannot be negative, as a bigint. */
export function requireCount(value: number, what: string): bigint {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${what} must be a whole number ≥ 0`);
  return BigInt(value);
}

export function requireSignedCents(value: number, what: string): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a whole number of cents`);
  return value;
}

export interface BalanceCharge {
  chargeCents: number;
  /** Service credit applied to this charge before the balance pays the rest. */
  creditCents: number;
  balanceCents: number;
  /** The balance may be spent down to this (configurable, default 0; below 0 allows an overdraft). */
  minimumBalanceCents: number;
}

export interface ChargeSettlement {
  paidCents: number;
  dueCents: number;
  status: Extract<TransactionStatus, 'paid' | 'open'>;
  balanceAfterCents: number;
  /** Money is still due with the balance at its minimum: the account becomes inactive. */
  accountBecomesInactive: boolean;
}

/**
 * Pays a charge from the prepaid balance: the credit first, then the balance down to its minimum.
 * Fully paid is `paid`; any remainder stays due and leaves the charge `open`.
 */
export function settleFromBalance(charge: BalanceCharge): ChargeSettlement {
  const chargeCents = Number(requireCount(charge.chargeCents, 'charge'));
  const creditCents = Number(requireCount(charge.creditCents, 'credit'));
  if (creditCents > chargeCents) throw new RangeError('credit must not exceed the charge');
  const balance = requireSignedCents(charge.balanceCents, 'balance');
  const spendable = Math.max(0, balance - requireSignedCents(charge.minimumBalanceCents, 'minimum balance'));
  const paidCents = Math.min(chargeCents - creditCents, spendable);
  const dueCents = chargeCents - creditCents - paidCents;
  return {
    paidCents,
    dueCents,
    status: dueCents === 0 ? 'paid' : 'open',
    balanceAfterCents: balance - paidCents,
    accountBecomesInactive: dueCents > 0,
  };
}
