import { describe, expect, it } from 'vitest';
import { settleFromBalance } from './balance-settlement.ts';

describe('a charge paid from the prepaid balance down to the minimum', () => {
  it.each([
    { case: 'covered', balance: 10000, minimum: 0, charge: 3000, credit: 0, paid: 3000, due: 0, after: 7000 },
    {
      case: 'exactly covered',
      balance: 3000,
      minimum: 0,
      charge: 3000,
      credit: 0,
      paid: 3000,
      due: 0,
      after: 0,
    },
    {
      case: 'partly covered',
      balance: 1000,
      minimum: 0,
      charge: 3000,
      credit: 0,
      paid: 1000,
      due: 2000,
      after: 0,
    },
    { case: 'empty balance', balance: 0, minimum: 0, charge: 3000, credit: 0, paid: 0, due: 3000, after: 0 },
    {
      case: 'credit covers all',
      balance: 0,
      minimum: 0,
      charge: 3000,
      credit: 3000,
      paid: 0,
      due: 0,
      after: 0,
    },
    {
      case: 'credit first',
      balance: 5000,
      minimum: 0,
      charge: 3000,
      credit: 1000,
      paid: 2000,
      due: 0,
      after: 3000,
    },
    {
      case: 'minimum kept',
      balance: 2000,
      minimum: 500,
      charge: 3000,
      credit: 0,
      paid: 1500,
      due: 1500,
      after: 500,
    },
    {
      case: 'down to minimum',
      balance: 3500,
      minimum: 500,
      charge: 3000,
      credit: 0,
      paid: 3000,
      due: 0,
      after: 500,
    },
    {
      case: 'below minimum',
      balance: 200,
      minimum: 500,
      charge: 100,
      credit: 0,
      paid: 0,
      due: 100,
      after: 200,
    },
    {
      case: 'overdraft allowed',
      balance: 0,
      minimum: -1000,
      charge: 800,
      credit: 0,
      paid: 800,
      due: 0,
      after: -800,
    },
    { case: 'nothing charged', balance: 0, minimum: 0, charge: 0, credit: 0, paid: 0, due: 0, after: 0 },
  ])('$case', ({ balance, minimum, charge, credit, paid, due, after }) => {
    expect(
      settleFromBalance({
        chargeCents: charge,
        creditCents: credit,
        balanceCents: balance,
        minimumBalanceCents: minimum,
      }),
    ).toEqual({
      paidCents: paid,
      dueCents: due,
      status: due === 0 ? 'paid' : 'open',
      balanceAfterCents: after,
      accountBecomesInactive: due > 0,
    });
  });

  it('refuses a credit larger than the charge', () => {
    expect(() =>
      settleFromBalance({ chargeCents: 100, creditCents: 101, balanceCents: 0, minimumBalanceCents: 0 }),
    ).toThrow(RangeError);
  });
});
