import { padTransactionId } from '@portal/contracts';

/**
 * The number of the invoice a transaction carries, `INV-` and its padded id: the one place it is
 * formatted, for the transaction list, the PDF, the card gateway's description and the mails.
 */
export function invoiceNumber(transactionId: number): string {
  return `INV-${padTransactionId(transactionId)}`;
}
