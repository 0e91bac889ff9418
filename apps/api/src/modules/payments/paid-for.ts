import { padTransactionId } from '@portal/contracts';
import type { Executor } from '../../db/client.ts';
import { invoiceNumber } from '../ledger/invoice-number.ts';
import { findTransaction } from '../ledger/ledger.repository.ts';

/**
 * What a card paid when it paid a transaction, for the gateway's description and the receipt: a
 * service charge's invoice by its number, a miscellaneous charge (which carries no invoice,
 * decision 040) by its transaction id.
 */
export async function transactionPaidFor(
  executor: Executor,
  organizationId: string,
  transactionId: number,
): Promise<string> {
  const transaction = await findTransaction(executor, organizationId, transactionId);
  return transaction?.type === 'other'
    ? `Charge ${padTransactionId(transactionId)}`
    : `Invoice ${invoiceNumber(transactionId)}`;
}
