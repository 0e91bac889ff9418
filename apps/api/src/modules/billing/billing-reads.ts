import type { Permission } from '@portal/contracts';
import type { SessionUser } from '../../auth/session.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { assertPermission } from '../../plugins/authenticate.ts';
import { findCreditAmount, findTransaction, type TransactionRow } from '../ledger/ledger.repository.ts';
import { requireMembership } from '../members/members.service.ts';

/*
 * What billing's reads share: the caller's organisation, a transaction found within it, and what
 * its invoice comes to.
 */

/** The caller's organisation, once their role holds the permission. */
export async function callerOrganizationId(
  db: Db,
  user: SessionUser,
  permission: Permission,
): Promise<string> {
  const membership = await requireMembership(db, user);
  assertPermission(membership.member.roleId, permission);
  return membership.organization.id;
}

/** A transaction id from a path, padded or not; anything that cannot be one is not found. */
export function parseTransactionId(id: string): number {
  const value = Number(id);
  if (!/^\d+$/.test(id) || !Number.isSafeInteger(value) || value < 1) throw new AppError('NOT_FOUND');
  return value;
}

/** The organisation's transaction a path names; 404 for any other. */
export async function requireTransaction(
  db: Db,
  organizationId: string,
  id: string,
): Promise<TransactionRow> {
  const row = await findTransaction(db, organizationId, parseTransactionId(id));
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** The credit (trial credit, free credit) covering part of a transaction, in cents. */
export async function creditOf(db: Db, organizationId: string, row: TransactionRow): Promise<number> {
  return row.creditTransactionId ? findCreditAmount(db, organizationId, row.creditTransactionId) : 0;
}

/** A voided charge (raised by mistake) or a cancelled one is owed by nobody, whatever was paid of it. */
const OWED_BY_NOBODY: ReadonlySet<TransactionRow['status']> = new Set(['voided', 'cancelled']);

/** What an invoice comes to and how much of it is settled, in cents. */
export function invoiceTotals(row: TransactionRow, creditCents: number) {
  const unsettledCents = Math.max(0, row.amountCents - creditCents - row.paymentAmountCents);
  return {
    subtotalCents: row.amountCents - row.taxAmountCents,
    taxCents: row.taxAmountCents,
    taxPercentage: Number(row.taxRatePercent),
    totalCents: row.amountCents,
    creditCents,
    paidCents: row.paymentAmountCents,
    dueCents: OWED_BY_NOBODY.has(row.status) ? 0 : unsettledCents,
  };
}

/** The tax of an invoice, one line when it is taxed. */
export function taxLines({ taxCents, taxPercentage }: ReturnType<typeof invoiceTotals>) {
  return taxCents > 0 || taxPercentage > 0 ? [{ title: 'Tax', amountCents: taxCents }] : [];
}
