import { setImmediate } from 'node:timers/promises';
import { PLAN_PRICES_MICRO_USD, TRIAL_LENGTH_DAYS, type TransactionStatus } from '@portal/contracts';
import type { Db, Tx } from '../../db/client.ts';
import type { PortalMetrics } from '../../plugins/metrics.ts';
import { planName } from '../applications/applications.service.ts';
import type { TransactionRow } from '../ledger/ledger.repository.ts';
import { creditTrial, openMonthlyCharge, payMonthlyCharge } from '../ledger/ledger.service.ts';
import {
  flatRateInvoice,
  paygCharge,
  parseBillingCycle,
  ratePercentToBasisPoints,
  trialCredit,
  type FlatRateComponentKind,
  type TrialPeriod,
} from './billing-rules.ts';
import {
  findTaxRatePercent,
  insertInvoiceLines,
  listCycleUsage,
  listOrganizationsToBill,
  type InvoiceLineValues,
} from './billing.repository.ts';

const DAY_MS = 86_400_000;
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

export interface MonthlyRunDeps {
  db: Db;
  productName: string;
  /** Told when a billing run ends: its result (none when the run itself failed) and how long it took. */
  onRunFinished?: (run: BillingRunResult | undefined, durationSeconds: number) => void;
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
  { lines, ...charge }: Parameters<typeof openMonthlyCharge>[2] & { lines: InvoiceLineValues[] },
): Promise<TransactionRow | undefined> {
  const row = await openMonthlyCharge(tx, organizationId, charge);
  if (row) await insertInvoiceLines(tx, organizationId, row.id, lines);
  return row;
}

/** A billing run's end as the server's metrics count it. */
export function billingRunMetrics(metrics: PortalMetrics): NonNullable<MonthlyRunDeps['onRunFinished']> {
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

/**
 * The monthly run: bills a month that has ended, each organisation once, its charge paid from the
 * balance through the ledger.
 */
export function monthlyRunService({ db, productName, onRunFinished }: MonthlyRunDeps) {
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
          ? await creditTrial(tx, organization.id, {
              billingCycle: cycle,
              amountCents: creditCents,
              paidAt: now,
            })
          : undefined;
      const { settlement, becameInactive } = await payMonthlyCharge(tx, organization.id, invoice, {
        creditCents,
        creditTransactionId: credit?.id ?? null,
        now,
      });
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
  };
}
