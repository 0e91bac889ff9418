import type { InvoiceLinkQuery } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { invoiceNumber } from '../ledger/invoice-number.ts';
import { countries, subdivisionsOf } from '../utils/geography.ts';
import { creditOf, invoiceTotals, requireTransaction, taxLines } from './billing-reads.ts';
import { billingCycleOf } from './billing-rules.ts';
import { findBillingDetails, findTransactionOrganizationId, listInvoiceLines } from './billing.repository.ts';
import type { InvoiceLinkCheck, InvoiceLinks } from './invoice-links.ts';
import { renderInvoicePdf, type InvoiceCustomer } from './invoice-pdf.ts';

/** The invoice PDF a signed link opens, or why the link is refused. */
export type InvoiceDownload =
  { refused: Exclude<InvoiceLinkCheck, 'valid'> } | { fileName: string; pdf: Buffer };

export interface InvoicesDeps {
  db: Db;
  productName: string;
  links: InvoiceLinks;
  /** The seller's address under the product name. */
  sellerAddressLines: string[];
}

/** The organisation's billing name, address and VAT number as an invoice prints them. */
function invoiceCustomer(
  details: NonNullable<Awaited<ReturnType<typeof findBillingDetails>>>,
): InvoiceCustomer {
  const state = subdivisionsOf(details.billingCountry)?.find((entry) => entry.code === details.billingState);
  const country = countries.find((entry) => entry.value === details.billingCountry);
  return {
    name: details.billingName || details.name,
    addressLines: [
      details.billingAddress,
      details.billingAddress2,
      [details.billingZipCode, details.billingCity].filter(Boolean).join(' '),
      state?.name ?? '',
      country?.label ?? details.billingCountry,
    ].filter(Boolean),
    vatNumber: details.vatNumber,
  };
}

/** /api/v1/invoices/{id}.pdf: the invoice PDF behind a signed link. */
export function invoicesService({ db, productName, links, sellerAddressLines }: InvoicesDeps) {
  return {
    /**
     * The invoice PDF a signed link names, with the organisation's billing details and the seller;
     * the link is the credential, so it is checked before anything is read.
     */
    async invoicePdf(id: string, link: InvoiceLinkQuery): Promise<InvoiceDownload> {
      const transactionId = Number(id);
      const check = links.check(transactionId, link);
      if (check !== 'valid') return { refused: check };
      const organizationId = await findTransactionOrganizationId(db, transactionId);
      if (!organizationId) throw new AppError('NOT_FOUND');
      const row = await requireTransaction(db, organizationId, id);
      const details = await findBillingDetails(db, organizationId);
      if (!row.invoiceType || !details) throw new AppError('NOT_FOUND');
      const totals = invoiceTotals(row, await creditOf(db, organizationId, row));
      const lines = await listInvoiceLines(db, organizationId, row.id);
      const number = invoiceNumber(row.id);
      const pdf = await renderInvoicePdf({
        invoiceNumber: number,
        issuedAt: row.createdAt,
        // Every invoice is a month's; a ledger row without a cycle carries none.
        billingCycle: row.billingCycle ?? billingCycleOf(row.createdAt),
        seller: { name: productName, addressLines: sellerAddressLines },
        customer: invoiceCustomer(details),
        lines: lines.map((line) => ({
          description: line.productName ? `${line.description} (${line.productName})` : line.description,
          quantity: line.quantity,
          unitPriceMicroUsd: line.unitPriceMicroUsd,
          amountCents: line.amountCents,
        })),
        subtotalCents: totals.subtotalCents,
        discountCents: 0,
        taxes: taxLines(totals),
        totalCents: totals.totalCents,
        creditCents: totals.creditCents,
        paidCents: totals.paidCents,
        dueCents: totals.dueCents,
      });
      return { fileName: `${number}.pdf`, pdf };
    },
  };
}
