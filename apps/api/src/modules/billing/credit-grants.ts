import type { Db } from '../../db/client.ts';
import { insertGrantedCredit, lockBalance, moveBalance } from './billing.repository.ts';

export interface CreditGrant {
  transactionId: number;
  amountCents: number;
  balanceCents: number;
}

/**
 * Raises an organisation's prepaid balance by credit an operator grants: the ledger's service
 * credit and the balance movement it causes are written in one database transaction, so neither
 * exists without the other. Money still due stays due: settling it is the payment's work.
 */
export async function grantCredit(
  db: Db,
  organizationId: string,
  { amountCents, note, now = new Date() }: { amountCents: number; note: string; now?: Date },
): Promise<CreditGrant> {
  return db.transaction(async (tx) => {
    // The row lock orders this grant with a billing run paying from the same balance.
    await lockBalance(tx, organizationId);
    const credit = await insertGrantedCredit(tx, organizationId, { amountCents, notes: note, paidAt: now });
    const balanceCents = await moveBalance(tx, organizationId, credit.id, amountCents);
    return { transactionId: credit.id, amountCents, balanceCents };
  });
}
