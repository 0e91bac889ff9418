import { z } from 'zod';
import {
  BILLING_CYCLE_PATTERN,
  INVOICE_TYPES,
  TRANSACTION_ID_PATTERN,
  TRANSACTION_SEARCH_TERM_MAX_LENGTH,
  TRANSACTION_SORTS,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  USAGE_TYPES,
} from './billing-constants.ts';
import { CONTRACT_TYPES } from './constants.ts';

export * from './billing-constants.ts';

/**
 * An amount in USD as the API answers it, with at most 2 decimals; the ledger keeps integer cents
 * (decision 006) and converts at the edge.
 */
const usd = z.number();

export const TransactionIdSchema = z.string().regex(TRANSACTION_ID_PATTERN);

/** An application billed by a transaction, with the invoice that charges it. */
export const TransactionApplicationSchema = z.object({
  applicationId: z.string(),
  name: z.string(),
  invoiceId: z.string(),
});
export type TransactionApplication = z.infer<typeof TransactionApplicationSchema>;

/** A transaction (§3): every money movement of an organisation is one. */
export const TransactionSchema = z.object({
  transactionId: TransactionIdSchema,
  transactionCreatedAt: z.string(),
  type: z.enum(TRANSACTION_TYPES),
  status: z.enum(TRANSACTION_STATUSES),
  amount: usd,
  paymentAmount: usd,
  taxAmount: usd,
  taxPercentage: z.number(),
  freeCreditTransactionId: TransactionIdSchema.nullable(),
  notes: z.string(),
  invoiceId: z.string().nullable(),
  invoiceType: z.enum(INVOICE_TYPES).nullable(),
  billingCycle: z.string().regex(BILLING_CYCLE_PATTERN).nullable(),
  detail: z.array(TransactionApplicationSchema),
});
export type Transaction = z.infer<typeof TransactionSchema>;

export const ListTransactionsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  sortBy: z.enum(TRANSACTION_SORTS).default('lastCreated'),
});
export type ListTransactionsQuery = z.infer<typeof ListTransactionsQuerySchema>;
export const ListTransactionsResponseSchema = z.object({
  data: z.array(TransactionSchema),
  total: z.number().int(),
});
export type ListTransactionsResponse = z.infer<typeof ListTransactionsResponseSchema>;

/** Autocomplete by transaction id: the term matches the start of the padded id. */
export const SearchTransactionsRequestSchema = z.object({
  term: z.string().trim().min(1).max(TRANSACTION_SEARCH_TERM_MAX_LENGTH),
});
export type SearchTransactionsRequest = z.infer<typeof SearchTransactionsRequestSchema>;
export const SearchTransactionsResponseSchema = z.array(TransactionSchema);

/** The id in a path, padded as answered or not (`000000042` and `42` name the same transaction). */
/** The query of a signed invoice link (GET /api/v1/invoices/{id}.pdf). */
export const InvoiceLinkQuerySchema = z.object({
  expires: z.string().max(20).describe('When the link stops working, in seconds since 1970'),
  signature: z.string().max(100).describe("The link's signature"),
});
export type InvoiceLinkQuery = z.infer<typeof InvoiceLinkQuerySchema>;

export const TransactionIdParamsSchema = z.object({ id: z.string().regex(/^\d{1,15}$/) });
export const TransactionDetailParamsSchema = TransactionIdParamsSchema.extend({
  invoiceType: z.enum(INVOICE_TYPES),
});

/**
 * One line of a MAU-based invoice (§3): an application's monthly active users against its licence
 * (0 on PAYG). `price` is what the line charges; `unitPrice`, beyond the spec, is the price per MAU
 * it was computed from, so the page can show how.
 */
export const MauDetailLineSchema = z.object({
  invoiceId: z.string(),
  productName: z.string(),
  supportPlan: z.string(),
  MAUUsage: z.number().int(),
  MAULicense: z.number().int(),
  price: usd,
  unitPrice: usd,
});
export type MauDetailLine = z.infer<typeof MauDetailLineSchema>;
export const MauDetailResponseSchema = z.array(MauDetailLineSchema);

/** A component of a component-based invoice (§3: the field total_amount is spelled as the spec has it). */
export const InvoiceComponentSchema = z.object({
  title: z.string(),
  quantity: z.number(),
  total_amount: usd,
});
export type InvoiceComponent = z.infer<typeof InvoiceComponentSchema>;
export const ComponentDetailSchema = z.object({
  invoiceId: z.string(),
  components: z.array(InvoiceComponentSchema),
});
export type ComponentDetail = z.infer<typeof ComponentDetailSchema>;
export const ComponentDetailResponseSchema = z.array(ComponentDetailSchema);

/** GET /transactions/{id}/details/{invoiceType} answers the shape its invoice type names. */
export const TransactionDetailResponseSchema = z.union([
  MauDetailResponseSchema,
  ComponentDetailResponseSchema,
]);

export const InvoiceTaxSchema = z.object({ title: z.string(), percentage: z.number(), taxAmount: usd });
export type InvoiceTax = z.infer<typeof InvoiceTaxSchema>;

/** What an invoice comes to and how much of it is settled (§3). */
export const PaymentSummarySchema = z.object({
  /** Null for a miscellaneous charge, which carries no invoice (decision 040). */
  invoiceId: z.string().nullable(),
  subTotal: usd,
  discountAmount: usd,
  taxes: z.array(InvoiceTaxSchema),
  totalAmount: usd,
  creditAmount: usd,
  paidAmount: usd,
  dueAmount: usd,
});
export type PaymentSummary = z.infer<typeof PaymentSummarySchema>;

/** A signed, expiring address of the invoice PDF, opened in a new tab. */
export const TransactionReportResponseSchema = z.object({ signedUrl: z.url() });
export type TransactionReportResponse = z.infer<typeof TransactionReportResponseSchema>;

/**
 * Usage of the current month (§3: type, usage). `updatedAt`, beyond the spec, is when it was last
 * imported from the regions: the flat-rate page shows it as the latest update time.
 */
export const UsageRecordSchema = z.object({
  type: z.enum(USAGE_TYPES),
  usage: z.number().int().min(0),
  updatedAt: z.string().nullable(),
});
export type UsageRecord = z.infer<typeof UsageRecordSchema>;
export const UsagesResponseSchema = z.array(UsageRecordSchema);

/** An application's monthly active users in one month: 0 when the regions reported none. */
export const ApplicationMonthlyUsageSchema = z.object({
  applicationId: z.string(),
  name: z.string(),
  mau: z.number().int().min(0),
});
export type ApplicationMonthlyUsage = z.infer<typeof ApplicationMonthlyUsageSchema>;

/**
 * Beyond the spec: one month of the organisation's usage, per application (decision 017). Every
 * month of an answer lists the same applications in the same order: those with usage in any of
 * its months, in the order they were created.
 */
export const MonthlyUsageSchema = z.object({
  month: z.string().regex(BILLING_CYCLE_PATTERN),
  applications: z.array(ApplicationMonthlyUsageSchema),
});
export type MonthlyUsage = z.infer<typeof MonthlyUsageSchema>;
/** The last MONTHLY_USAGE_MONTHS months, oldest first, the current month (UTC) last. */
export const MonthlyUsagesResponseSchema = z.array(MonthlyUsageSchema);

/** The organisation's contract (§3): its type, the licensed MAU (0 on PAYG) and the support plan. */
export const ContractRecordSchema = z.object({
  type: z.enum(CONTRACT_TYPES),
  license: z.number().int().min(0),
  supportPlan: z.string(),
});
export type ContractRecord = z.infer<typeof ContractRecordSchema>;
export const ContractsResponseSchema = z.array(ContractRecordSchema);
