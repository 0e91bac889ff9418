import { setImmediate } from 'node:timers/promises';
import {
  MONTHLY_USAGE_MONTHS,
  PLAN_PRICES_MICRO_USD,
  TRANSACTION_PAGE_SIZE,
  TRANSACTION_SEARCH_LIMIT,
  TRIAL_LENGTH_DAYS,
  type ComponentDetail,
  type ContractRecord,
  type InvoiceLinkQuery,
  type InvoiceType,
  type ListTransactionsQuery,
  type ListTransactionsResponse,
  type MauDetailLine,
  type MonthlyUsage,
  type PaymentSummary,
  type Permission,
  type SearchTransactionsRequest,
  type Transaction,
  type TransactionReportResponse,
  type TransactionStatus,
  type UsageRecord,
  padTransactionId,
} from '@portal/contracts';
import type { SessionUser } from '../../auth/session.ts';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { assertPermission } from '../../plugins/authenticate.ts';
import type { PortalMetrics } from '../../plugins/metrics.ts';
import { planName } from '../applications/applications.service.ts';
import { requireMembership } from '../members/members.service.ts';
import { countries, subdivisionsOf } from '../utils/geography.ts';
import {
  centsToUsd,
  flatRateInvoice,
  parseBillingCycle,
  paygCharge,
  ratePercentToBasisPoints,
  settleFromBalance,
  trialCredit,
  type FlatRateComponentKind,
  type TrialPeriod,
} from './billing-rules.ts';
import {
  findBillingDetails,
  findCreditAmount,
  findTaxRatePercent,
  findTransaction,
  findTransactionOrganizationId,
  insertCycleTransaction,
  insertGrantedCredit,
  insertInvoiceLines,
  listBilledApplications,
  listCycleUsage,
  listInvoiceLines,
  listMonthlyUsage,
  listOrganizationsToBill,
  listTransactions,
  lockBalance,
  markAccountInactive,
  moveBalance,
  searchTransactions,
  settleTransaction,
  sumCycleUsage,
  type CycleTransactionValues,
  type InvoiceLineValues,
  type TransactionRow,
} from './billing.repository.ts';
import type { InvoiceLinkCheck, InvoiceLinks } from './invoice-links.ts';
import { renderInvoicePdf, type InvoiceCustomer } from './invoice-pdf.ts';
import { monthlyUsageByApplication, monthsUpTo } from './monthly-usage.ts';

const DAY_MS = 86_400_000;
const MICRO_USD_PER_USD = 1_000_000;
const TRIAL_CREDIT_NOTE = 'Trial credit';
/**
 * How many organisations a billing run bills at once, each in its own database transaction and
 * connection: commits and round trips overlap, and most of the pool's 10 connections stay free for
 * the portal's requests. Each is still billed once: the invoice's unique key decides.
 */
const BILLING_RUN_CONCURRENCY = 4;

/** `work` for every item, at most `limit` at a time; the results in the items' order. */
async function mapConcurrently<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) {
      results[index] = await work(items[index] as T);
      // The embedded database answers without waiting on I/O, so a long run would otherwise keep
      // every other request (health checks included) waiting until it ends.
      await setImmediate();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

const COMPONENT_TITLES: Record<FlatRateComponentKind, (contract: FlatRateOrganization) => string> = {
  license_fee: (contract) => `Licence fee (${contract.licenseMau} MAU)`,
  mau_overage: () => 'Monthly active users above the licence',
  support_plan: (contract) => `Support plan ${contract.supportPlan}`,
};

type OrganizationToBill = Awaited<ReturnType<typeof listOrganizationsToBill>>[number];
type FlatRateOrganization = Pick<OrganizationToBill, 'licenseMau' | 'supportPlan'>;

export interface BillingDeps {
  db: Db;
  productName: string;
  /** What the invoice report needs; the routes give it, the billing run does without. */
  invoices?: {
    links: InvoiceLinks;
    /** The seller's address under the product name. */
    sellerAddressLines: string[];
  };
  /** Told when a billing run ends: its result (none when the run itself failed) and how long it took. */
  onRunFinished?: (run: BillingRunResult | undefined, durationSeconds: number) => void;
}

/** The invoice PDF a signed link opens, or why the link is refused. */
export type InvoiceDownload =
  { refused: Exclude<InvoiceLinkCheck, 'valid'> } | { fileName: string; pdf: Buffer };

export interface CreditGrant {
  transactionId: number;
  amountCents: number;
  balanceCents: number;
  /** An earlier request with the same idempotency key made this grant; nothing moved now. */
  alreadyGranted: boolean;
}

export interface RunMonthlyBillingOptions {
  /** The month to bill, `YYYY-MM`; it must have ended. */
  cycle: string;
  /** Bill this organisation only. */
  organizationId?: string;
  now?: Date;
}

/** An organisation this run billed, amounts in cents. */
export interface BilledOrganization {
  organizationId: string;
  transactionId: number;
  status: TransactionStatus;
  chargeCents: number;
  creditCents: number;
  paidCents: number;
  dueCents: number;
}

export interface BillingRunResult {
  cycle: string;
  billed: BilledOrganization[];
  /** Organisations whose invoice of the cycle an earlier or concurrent run wrote: nothing changed. */
  alreadyBilled: string[];
  /**
   * Accounts this run set inactive because money stays due: their super-admins are to be told and
   * their applications deactivated after 30 days if still inactive.
   */
  becameInactive: string[];
  /** Organisations that could not be billed; a later run bills them, the others are unaffected. */
  failed: { organizationId: string; error: string }[];
}

type BillingOutcome = { billed: BilledOrganization; becameInactive: boolean } | 'already_billed';

/** The trial: it began at the organisation's setup, TRIAL_LENGTH_DAYS before it ends. */
function trialOf(trialEndAt: Date | null): TrialPeriod | null {
  if (!trialEndAt) return null;
  return { startAt: new Date(trialEndAt.getTime() - TRIAL_LENGTH_DAYS * DAY_MS), endAt: trialEndAt };
}

/**
 * Claims the organisation's month by writing its service charge, open until settled, with the
 * invoice's lines; undefined when an earlier or concurrent run wrote it, and then nothing is written.
 */
async function insertMonthlyInvoice(
  tx: Tx,
  organizationId: string,
  { lines, ...invoice }: Omit<CycleTransactionValues, 'type' | 'status'> & { lines: InvoiceLineValues[] },
): Promise<TransactionRow | undefined> {
  const row = await insertCycleTransaction(tx, organizationId, {
    ...invoice,
    type: 'service_charge',
    status: 'open',
  });
  if (row) await insertInvoiceLines(tx, organizationId, row.id, lines);
  return row;
}

/** A billing run's end as the server's metrics count it. */
export function billingRunMetrics(metrics: PortalMetrics): NonNullable<BillingDeps['onRunFinished']> {
  return (run, durationSeconds) =>
    metrics.billingRunFinished(
      run && {
        billed: run.billed.length,
        failed: run.failed.length,
        alreadyBilled: run.alreadyBilled.length,
      },
      durationSeconds,
    );
}

/** The invoice a transaction carries is numbered after it. */
export function invoiceNumber(transactionId: number): string {
  return `INV-${padTransactionId(transactionId)}`;
}

/** A transaction id from a path, padded or not; anything that cannot be one is not found. */
function parseTransactionId(id: string): number {
  const value = Number(id);
  if (!/^\d+$/.test(id) || !Number.isSafeInteger(value) || value < 1) throw new AppError('NOT_FOUND');
  return value;
}

/** What an invoice comes to and how much of it is settled, in cents. */
function invoiceTotals(row: TransactionRow, creditCents: number) {
  return {
    subtotalCents: row.amountCents - row.taxAmountCents,
    taxCents: row.taxAmountCents,
    taxPercentage: Number(row.taxRatePercent),
    totalCents: row.amountCents,
    creditCents,
    paidCents: row.paymentAmountCents,
    dueCents: Math.max(0, row.amountCents - creditCents - row.paymentAmountCents),
  };
}

/** The tax of an invoice, one line when it is taxed. */
function taxLines({ taxCents, taxPercentage }: ReturnType<typeof invoiceTotals>) {
  return taxCents > 0 || taxPercentage > 0 ? [{ title: 'Tax', amountCents: taxCents }] : [];
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

export function billingService({ db, productName, invoices, onRunFinished }: BillingDeps) {
  function requireInvoices() {
    if (!invoices) throw new Error('the billing service was built without what invoices need');
    return invoices;
  }

  async function callerOrganizationId(user: SessionUser, permission: Permission): Promise<string> {
    const membership = await requireMembership(db, user);
    assertPermission(membership.member.roleId, permission);
    return membership.organization.id;
  }

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

  /** The credit (trial credit, free credit) covering part of a transaction, in cents. */
  async function creditOf(organizationId: string, row: TransactionRow): Promise<number> {
    return row.creditTransactionId ? findCreditAmount(db, organizationId, row.creditTransactionId) : 0;
  }

  async function requireTransaction(organizationId: string, id: string): Promise<TransactionRow> {
    const row = await findTransaction(db, organizationId, parseTransactionId(id));
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  /**
   * A PAYG month: the service charge of every application's MAU, the trial's share as a service
   * credit, and the rest paid from the balance down to its minimum, all in one database
   * transaction that begins by claiming the month's invoice.
   */
  async function billPayg(
    organization: OrganizationToBill,
    cycle: string,
    cycleEnd: Date,
    now: Date,
  ): Promise<BillingOutcome | undefined> {
    const usage = await listCycleUsage(db, organization.id, cycle, cycleEnd);
    // An organisation without applications has nothing to invoice.
    if (usage.length === 0) return undefined;
    const charge = paygCharge(usage);
    const { creditCents } = trialCredit(charge.totalCents, cycle, trialOf(organization.trialEndAt));
    return db.transaction(async (tx): Promise<BillingOutcome> => {
      const invoice = await insertMonthlyInvoice(tx, organization.id, {
        billingCycle: cycle,
        amountCents: charge.totalCents,
        invoiceType: 'mau_based',
        lines: charge.lines.map((line) => ({
          applicationId: line.applicationId,
          description: line.name,
          productName: planName(line, 'payg', productName),
          quantity: line.mau,
          unitPriceMicroUsd: line.unitPriceMicroUsd,
          amountCents: line.amountCents,
        })),
      });
      if (!invoice) return 'already_billed';
      const credit =
        creditCents > 0
          ? await insertCycleTransaction(tx, organization.id, {
              type: 'service_credit',
              status: 'paid',
              billingCycle: cycle,
              amountCents: creditCents,
              notes: TRIAL_CREDIT_NOTE,
              paidAt: now,
            })
          : undefined;
      if (creditCents > 0 && !credit) throw new Error('the cycle has a service credit without its charge');
      const balance = await lockBalance(tx, organization.id);
      const settlement = settleFromBalance({ chargeCents: charge.totalCents, creditCents, ...balance });
      if (settlement.paidCents > 0) await moveBalance(tx, organization.id, invoice.id, -settlement.paidCents);
      await settleTransaction(tx, organization.id, invoice.id, {
        status: settlement.status,
        paymentAmountCents: settlement.paidCents,
        paidAt: settlement.status === 'paid' ? now : null,
        creditTransactionId: credit?.id ?? null,
      });
      const becameInactive =
        settlement.accountBecomesInactive && (await markAccountInactive(tx, organization.id, invoice.id));
      return {
        becameInactive,
        billed: {
          organizationId: organization.id,
          transactionId: invoice.id,
          status: settlement.status,
          chargeCents: charge.totalCents,
          creditCents,
          paidCents: settlement.paidCents,
          dueCents: settlement.dueCents,
        },
      };
    });
  }

  /** A flat-rate month: the component-based licence invoice with tax, open until paid by card. */
  async function billFlatRate(
    organization: OrganizationToBill,
    cycle: string,
    cycleEnd: Date,
  ): Promise<BillingOutcome> {
    const usage = await listCycleUsage(db, organization.id, cycle, cycleEnd);
    const mau = usage.reduce((total, application) => total + application.mau, 0);
    const taxRatePercent = await findTaxRatePercent(db, organization.billingCountry);
    const overagePriceMicroUsd = PLAN_PRICES_MICRO_USD[organization.contractPlan];
    const invoice = flatRateInvoice(
      { ...organization, overagePriceMicroUsd },
      mau,
      ratePercentToBasisPoints(taxRatePercent),
    );
    return db.transaction(async (tx): Promise<BillingOutcome> => {
      const row = await insertMonthlyInvoice(tx, organization.id, {
        billingCycle: cycle,
        amountCents: invoice.totalCents,
        taxAmountCents: invoice.taxCents,
        taxRatePercent,
        invoiceType: 'component_based',
        lines: invoice.components.map((component) => ({
          description: COMPONENT_TITLES[component.kind](organization),
          quantity: component.quantity,
          unitPriceMicroUsd: component.kind === 'mau_overage' ? overagePriceMicroUsd : null,
          amountCents: component.amountCents,
        })),
      });
      if (!row) return 'already_billed';
      return {
        becameInactive: false,
        billed: {
          organizationId: organization.id,
          transactionId: row.id,
          status: 'open',
          chargeCents: invoice.totalCents,
          creditCents: 0,
          paidCents: 0,
          dueCents: invoice.totalCents,
        },
      };
    });
  }

  return {
    /**
     * Raises an organisation's prepaid balance by credit an operator grants: the ledger's service
     * credit and the balance movement it causes are written in one database transaction, so neither
     * exists without the other. Money still due stays due: settling it is the payment's work.
     * Repeated with its idempotency key (a retry after a lost answer), it answers the grant made.
     */
    async grantCredit(
      organizationId: string,
      {
        amountCents,
        note,
        idempotencyKey,
        now = new Date(),
      }: { amountCents: number; note: string; idempotencyKey?: string; now?: Date },
    ): Promise<CreditGrant> {
      return db.transaction(async (tx) => {
        // The row lock orders this grant with a billing run paying from the same balance, and a
        // repeat of it after this one.
        const balance = await lockBalance(tx, organizationId);
        const credit = await insertGrantedCredit(tx, organizationId, {
          amountCents,
          notes: note,
          paidAt: now,
          idempotencyKey: idempotencyKey ?? null,
        });
        if (credit) {
          const balanceCents = await moveBalance(tx, organizationId, credit.id, amountCents);
          return { transactionId: credit.id, amountCents, balanceCents, alreadyGranted: false };
        }
        const earlier = idempotencyKey
          ? await findTransaction(tx, organizationId, { idempotencyKey })
          : undefined;
        if (
          earlier?.type !== 'service_credit' ||
          earlier.amountCents !== amountCents ||
          earlier.notes !== note
        ) {
          throw new AppError('IDEMPOTENCY_KEY_REUSED', { field: 'idempotencyKey' });
        }
        return {
          transactionId: earlier.id,
          amountCents,
          balanceCents: balance.balanceCents,
          alreadyGranted: true,
        };
      });
    },

    /**
     * Bills a month that has ended: each PAYG organisation's service charge (and trial credit),
     * paid from its balance, and each flat-rate organisation's licence invoice. Each organisation
     * is billed in its own database transaction, at most once per month however often or
     * concurrently this runs; one that fails is reported and leaves the others billed. Up to
     * BILLING_RUN_CONCURRENCY organisations are billed at once.
     */
    async runMonthlyBilling({
      cycle,
      organizationId,
      now = new Date(),
    }: RunMonthlyBillingOptions): Promise<BillingRunResult> {
      const { year, month } = parseBillingCycle(cycle);
      const cycleEnd = new Date(Date.UTC(year, month, 1));
      if (now < cycleEnd) throw new RangeError(`the billing cycle ${cycle} has not ended yet`);
      const startedAt = performance.now();
      const result: BillingRunResult = {
        cycle,
        billed: [],
        alreadyBilled: [],
        becameInactive: [],
        failed: [],
      };
      const bill = async (
        organizations: OrganizationToBill[],
        run: (organization: OrganizationToBill) => Promise<BillingOutcome | undefined>,
      ) => {
        const outcomes = await mapConcurrently(organizations, BILLING_RUN_CONCURRENCY, (organization) =>
          run(organization).catch((error: unknown) => ({
            error: error instanceof Error ? error.message : String(error),
          })),
        );
        // Reported in the organisations' order, whichever finished first.
        organizations.forEach((organization, index) => {
          const outcome = outcomes[index];
          if (outcome === 'already_billed') result.alreadyBilled.push(organization.id);
          else if (outcome && 'error' in outcome) {
            result.failed.push({ organizationId: organization.id, error: outcome.error });
          } else if (outcome) {
            result.billed.push(outcome.billed);
            if (outcome.becameInactive) result.becameInactive.push(organization.id);
          }
        });
      };
      let finished = false;
      try {
        await bill(await listOrganizationsToBill(db, 'payg', organizationId), (organization) =>
          billPayg(organization, cycle, cycleEnd, now),
        );
        await bill(await listOrganizationsToBill(db, 'flat_rate', organizationId), (organization) =>
          billFlatRate(organization, cycle, cycleEnd),
        );
        finished = true;
        return result;
      } finally {
        onRunFinished?.(finished ? result : undefined, (performance.now() - startedAt) / 1000);
      }
    },

    /** GET /api/v1/transactions: a page of 30, newest or oldest first, and the total. */
    async list(user: SessionUser, query: ListTransactionsQuery): Promise<ListTransactionsResponse> {
      const organizationId = await callerOrganizationId(user, 'VIEW_BILLING');
      const { rows, total } = await listTransactions(db, organizationId, {
        number: query.page,
        size: TRANSACTION_PAGE_SIZE,
        sortBy: query.sortBy,
      });
      return { data: await presentTransactions(organizationId, rows), total };
    },

    /** POST /api/v1/transactions/search: transactions whose padded id starts with the term. */
    async search(user: SessionUser, request: SearchTransactionsRequest): Promise<Transaction[]> {
      const organizationId = await callerOrganizationId(user, 'VIEW_BILLING');
      // Ids are digits only: any other term matches none.
      if (!/^\d+$/.test(request.term)) return [];
      const rows = await searchTransactions(db, organizationId, request.term, TRANSACTION_SEARCH_LIMIT);
      return presentTransactions(organizationId, rows);
    },

    async get(user: SessionUser, id: string): Promise<Transaction> {
      const organizationId = await callerOrganizationId(user, 'VIEW_BILLING');
      const [transaction] = await presentTransactions(organizationId, [
        await requireTransaction(organizationId, id),
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
      const organizationId = await callerOrganizationId(user, 'VIEW_BILLING');
      const row = await requireTransaction(organizationId, id);
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

    /** What the invoice comes to, the credit against it, what is paid and what is still due. */
    async paymentSummary(user: SessionUser, id: string): Promise<PaymentSummary> {
      const organizationId = await callerOrganizationId(user, 'VIEW_BILLING');
      const row = await requireTransaction(organizationId, id);
      if (!row.invoiceType) throw new AppError('NOT_FOUND');
      const totals = invoiceTotals(row, await creditOf(organizationId, row));
      return {
        invoiceId: invoiceNumber(row.id),
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
      const organizationId = await callerOrganizationId(user, 'VIEW_BILLING');
      const row = await requireTransaction(organizationId, id);
      if (!row.invoiceType) throw new AppError('NOT_FOUND');
      return { signedUrl: requireInvoices().links.sign(row.id) };
    },

    /**
     * The invoice PDF a signed link names, with the organisation's billing details and the seller;
     * the link is the credential, so it is checked before anything is read.
     */
    async invoicePdf(id: string, link: InvoiceLinkQuery): Promise<InvoiceDownload> {
      const { links, sellerAddressLines } = requireInvoices();
      const transactionId = Number(id);
      const check = links.check(transactionId, link);
      if (check !== 'valid') return { refused: check };
      const organizationId = await findTransactionOrganizationId(db, transactionId);
      if (!organizationId) throw new AppError('NOT_FOUND');
      const row = await requireTransaction(organizationId, id);
      const details = await findBillingDetails(db, organizationId);
      if (!row.invoiceType || !details) throw new AppError('NOT_FOUND');
      const totals = invoiceTotals(row, await creditOf(organizationId, row));
      const lines = await listInvoiceLines(db, organizationId, row.id);
      const number = invoiceNumber(row.id);
      const pdf = await renderInvoicePdf({
        invoiceNumber: number,
        issuedAt: row.createdAt,
        // Every invoice is a month's; a ledger row without a cycle carries none.
        billingCycle: row.billingCycle ?? row.createdAt.toISOString().slice(0, 7),
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

    /** GET /api/v1/accounts/usages: the monthly active users of the current month so far. */
    async usages(user: SessionUser, now = new Date()): Promise<UsageRecord[]> {
      const organizationId = await callerOrganizationId(user, 'VIEW_PLAN_DETAIL');
      const { mau, updatedAt } = await sumCycleUsage(db, organizationId, now.toISOString().slice(0, 7));
      return [{ type: 'mau', usage: mau, updatedAt: updatedAt?.toISOString() ?? null }];
    },

    /** GET /api/v1/accounts/contracts: the organisation's contract, read with the caller's session. */
    async contracts(user: SessionUser): Promise<ContractRecord[]> {
      const membership = await requireMembership(db, user);
      assertPermission(membership.member.roleId, 'VIEW_PLAN_DETAIL');
      const { contractType, licenseMau, supportPlan } = membership.organization;
      return [{ type: contractType, license: licenseMau, supportPlan }];
    },

    /** GET /api/v1/accounts/usages/monthly: each application's monthly active users of the last 12 months. */
    async monthlyUsages(user: SessionUser, now = new Date()): Promise<MonthlyUsage[]> {
      const organizationId = await callerOrganizationId(user, 'VIEW_PLAN_DETAIL');
      const months = monthsUpTo(now, MONTHLY_USAGE_MONTHS);
      return monthlyUsageByApplication(months, await listMonthlyUsage(db, organizationId, months));
    },
  };
}
