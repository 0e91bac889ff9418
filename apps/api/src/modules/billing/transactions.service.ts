import {
  TRANSACTION_PAGE_SIZE,
  TRANSACTION_SEARCH_LIMIT,
  type ComponentDetail,
  type InvoiceType,
  type ListTransactionsQuery,
  type ListTransactionsResponse,
  type MauDetailLine,
  type PaymentSummary,
  type SearchTransactionsRequest,
  type Transaction,
  type TransactionReportResponse,
  padTransactionId,
} from '@portal/contracts';
import type { SessionUser } from '../../auth/session.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { invoiceNumber } from '../ledger/invoice-number.ts';
import type { TransactionRow } from '../ledger/ledger.repository.ts';
import { centsToUsd } from './billing-rules.ts';
import {
  callerOrganizationId,
  creditOf,
  invoiceTotals,
  requireTransaction,
  taxLines,
} from './billing-reads.ts';
import {
  listBilledApplications,
  listInvoiceLines,
  listTransactions,
  searchTransactions,
} from './billing.repository.ts';
import type { InvoiceLinks } from './invoice-links.ts';

const MICRO_USD_PER_USD = 1_000_000;

function toTransaction(row: TransactionRow, detail: Transaction['detail']): Transaction {
  return {
    transactionId: padTransactionId(row.id),
    transactionCreatedAt: row.createdAt.toISOString(),
    type: row.type,
    status: row.status,
    amount: centsToUsd(row.amountCents),
    paymentAmount: centsToUsd(row.paymentAmountCents),
    taxAmount: centsToUsd(row.taxAmountCents),
    taxPercentage: Number(row.taxRatePercent),
    freeCreditTransactionId: row.creditTransactionId ? padTransactionId(row.creditTransactionId) : null,
    notes: row.notes,
    invoiceId: row.invoiceType ? invoiceNumber(row.id) : null,
    invoiceType: row.invoiceType,
    billingCycle: row.billingCycle,
    detail,
  };
}

export interface TransactionsDeps {
  db: Db;
  /** Signs the links the report answers. */
  invoiceLinks: InvoiceLinks;
}

/** /api/v1/transactions: the organisation's transactions, their invoices and what they come to (VIEW_BILLING). */
export function transactionsService({ db, invoiceLinks }: TransactionsDeps) {
  /** Transactions as answered, each with the applications it billed. */
  async function presentTransactions(organizationId: string, rows: TransactionRow[]): Promise<Transaction[]> {
    const billed = await listBilledApplications(
      db,
      organizationId,
      rows.map((row) => row.id),
    );
    return rows.map((row) =>
      toTransaction(
        row,
        billed
          .filter((line) => line.transactionId === row.id)
          .map((line) => ({
            applicationId: line.applicationId ?? '',
            name: line.name,
            invoiceId: invoiceNumber(row.id),
          })),
      ),
    );
  }

  return {
    /** GET /api/v1/transactions: a page of 30, newest or oldest first, and the total. */
    async list(user: SessionUser, query: ListTransactionsQuery): Promise<ListTransactionsResponse> {
      const organizationId = await callerOrganizationId(db, user, 'VIEW_BILLING');
      const { rows, total } = await listTransactions(db, organizationId, {
        number: query.page,
        size: TRANSACTION_PAGE_SIZE,
        sortBy: query.sortBy,
      });
      return { data: await presentTransactions(organizationId, rows), total };
    },

    /** POST /api/v1/transactions/search: transactions whose padded id starts with the term. */
    async search(user: SessionUser, request: SearchTransactionsRequest): Promise<Transaction[]> {
      const organizationId = await callerOrganizationId(db, user, 'VIEW_BILLING');
      // Ids are digits only: any other term matches none.
      if (!/^\d+$/.test(request.term)) return [];
      const rows = await searchTransactions(db, organizationId, request.term, TRANSACTION_SEARCH_LIMIT);
      return presentTransactions(organizationId, rows);
    },

    async get(user: SessionUser, id: string): Promise<Transaction> {
      const organizationId = await callerOrganizationId(db, user, 'VIEW_BILLING');
      const [transaction] = await presentTransactions(organizationId, [
        await requireTransaction(db, organizationId, id),
      ]);
      if (!transaction) throw new AppError('NOT_FOUND');
      return transaction;
    },

    /** The invoice's lines in the shape its type names; 404 when the transaction has no such invoice. */
    async detail(
      user: SessionUser,
      id: string,
      invoiceType: InvoiceType,
    ): Promise<MauDetailLine[] | ComponentDetail[]> {
      const organizationId = await callerOrganizationId(db, user, 'VIEW_BILLING');
      const row = await requireTransaction(db, organizationId, id);
      if (row.invoiceType !== invoiceType) throw new AppError('NOT_FOUND');
      const invoiceId = invoiceNumber(row.id);
      const lines = await listInvoiceLines(db, organizationId, row.id);
      if (invoiceType === 'component_based') {
        const components = lines.map((line) => ({
          title: line.description,
          quantity: line.quantity,
          total_amount: centsToUsd(line.amountCents),
        }));
        return [{ invoiceId, components }];
      }
      return lines.map((line) => ({
        invoiceId,
        productName: line.productName,
        supportPlan: '',
        MAUUsage: line.quantity,
        MAULicense: 0,
        price: centsToUsd(line.amountCents),
        unitPrice: (line.unitPriceMicroUsd ?? 0) / MICRO_USD_PER_USD,
      }));
    },

    /**
     * What a charge comes to, the credit against it, what is paid and what is still due: a service
     * charge's invoice, or a miscellaneous charge (which has no invoice); 404 for any other transaction.
     */
    async paymentSummary(user: SessionUser, id: string): Promise<PaymentSummary> {
      const organizationId = await callerOrganizationId(db, user, 'VIEW_BILLING');
      const row = await requireTransaction(db, organizationId, id);
      if (!row.invoiceType && row.type !== 'other') throw new AppError('NOT_FOUND');
      const totals = invoiceTotals(row, await creditOf(db, organizationId, row));
      return {
        invoiceId: row.invoiceType ? invoiceNumber(row.id) : null,
        subTotal: centsToUsd(totals.subtotalCents),
        discountAmount: 0,
        taxes: taxLines(totals).map((tax) => ({
          title: tax.title,
          percentage: totals.taxPercentage,
          taxAmount: centsToUsd(tax.amountCents),
        })),
        totalAmount: centsToUsd(totals.totalCents),
        creditAmount: centsToUsd(totals.creditCents),
        paidAmount: centsToUsd(totals.paidCents),
        dueAmount: centsToUsd(totals.dueCents),
      };
    },

    /** GET /transactions/{id}/report: a link that opens the invoice PDF without a session for 10 minutes. */
    async report(user: SessionUser, id: string): Promise<TransactionReportResponse> {
      const organizationId = await callerOrganizationId(db, user, 'VIEW_BILLING');
      const row = await requireTransaction(db, organizationId, id);
      if (!row.invoiceType) throw new AppError('NOT_FOUND');
      return { signedUrl: invoiceLinks.sign(row.id) };
    },
  };
}
