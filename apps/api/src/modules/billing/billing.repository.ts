import { and, asc, count, desc, eq, inArray, isNotNull, like, lt, max, or, sql, sum } from 'drizzle-orm';
import { SUPER_ADMIN_ROLE, type ContractType, type TransactionSort } from '@portal/contracts';
import type { Executor, Tx } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';

export type TransactionRow = typeof schema.ledgerTransaction.$inferSelect;
export type InvoiceLineRow = typeof schema.invoiceLine.$inferSelect;

const transactions = schema.ledgerTransaction;
const lines = schema.invoiceLine;

function ofOrganization(organizationId: string) {
  return eq(transactions.organizationId, organizationId);
}

/**
 * One page of the organisation's transactions, newest or oldest first, and how many there are. The
 * page's ids are found first, from the (organisation, created, id) index alone: the rows skipped to
 * reach a deep page are index entries, not rows read from the table.
 */
export async function listTransactions(
  executor: Executor,
  organizationId: string,
  page: { number: number; size: number; sortBy: TransactionSort },
) {
  const direction = page.sortBy === 'lastCreated' ? desc : asc;
  const order = [direction(transactions.createdAt), direction(transactions.id)];
  const pageIds = executor
    .select({ id: transactions.id })
    .from(transactions)
    .where(ofOrganization(organizationId))
    .orderBy(...order)
    .limit(page.size)
    .offset((page.number - 1) * page.size);
  const [rows, [totalRow]] = await Promise.all([
    executor
      .select()
      .from(transactions)
      .where(and(ofOrganization(organizationId), inArray(transactions.id, pageIds)))
      .orderBy(...order),
    executor.select({ total: count() }).from(transactions).where(ofOrganization(organizationId)),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}

/** The padded id compared byte by byte, as the (organisation, padded id) index holds it. */
const paddedIdBytes = sql`(${transactions.paddedId} COLLATE "C")`;

/**
 * The organisation's transactions whose padded id starts with `digits`, in the order of those ids:
 * the first `limit` entries of the index from the prefix on, however many match.
 */
export async function searchTransactions(
  executor: Executor,
  organizationId: string,
  digits: string,
  limit: number,
): Promise<TransactionRow[]> {
  if (!/^\d+$/.test(digits)) throw new RangeError('a transaction id prefix is digits only');
  return executor
    .select()
    .from(transactions)
    .where(and(ofOrganization(organizationId), like(paddedIdBytes, `${digits}%`)))
    .orderBy(asc(paddedIdBytes))
    .limit(limit);
}

/** The lines of one transaction's invoice, in the order they were billed. */
export async function listInvoiceLines(
  executor: Executor,
  organizationId: string,
  transactionId: number,
): Promise<InvoiceLineRow[]> {
  return executor
    .select()
    .from(lines)
    .where(and(eq(lines.organizationId, organizationId), eq(lines.transactionId, transactionId)))
    .orderBy(asc(lines.id));
}

/** The applications billed by each of the given transactions (a transaction's `detail`). */
export async function listBilledApplications(
  executor: Executor,
  organizationId: string,
  transactionIds: number[],
) {
  if (transactionIds.length === 0) return [];
  return executor
    .select({
      transactionId: lines.transactionId,
      applicationId: lines.applicationId,
      name: lines.description,
    })
    .from(lines)
    .where(
      and(
        eq(lines.organizationId, organizationId),
        inArray(lines.transactionId, transactionIds),
        isNotNull(lines.applicationId),
      ),
    )
    .orderBy(asc(lines.id));
}

/** The organisation's monthly active users in a cycle, and when they were last imported. */
export async function sumCycleUsage(executor: Executor, organizationId: string, billingCycle: string) {
  const [row] = await executor
    .select({ mau: sum(schema.applicationUsage.mau), updatedAt: max(schema.applicationUsage.importedAt) })
    .from(schema.applicationUsage)
    .where(
      and(
        eq(schema.applicationUsage.organizationId, organizationId),
        eq(schema.applicationUsage.billingCycle, billingCycle),
      ),
    );
  return { mau: Number(row?.mau ?? 0), updatedAt: row?.updatedAt ?? null };
}

/**
 * Records an application's monthly active users in a cycle (the latest import wins). The row is
 * written only for an application of the organisation: the values are selected from it.
 */
export async function recordApplicationUsage(
  executor: Executor,
  organizationId: string,
  usage: { applicationId: string; billingCycle: string; mau: number; importedAt: Date },
) {
  const { application } = schema;
  await executor
    .insert(schema.applicationUsage)
    .select(
      executor
        .select({
          organizationId: application.organizationId,
          applicationId: application.id,
          billingCycle: sql<string>`${usage.billingCycle}::text`.as('billing_cycle'),
          mau: sql<number>`${usage.mau}::integer`.as('mau'),
          importedAt: sql<Date>`${usage.importedAt.toISOString()}::timestamptz`.as('imported_at'),
        })
        .from(application)
        .where(and(eq(application.organizationId, organizationId), eq(application.id, usage.applicationId))),
    )
    .onConflictDoUpdate({
      target: [schema.applicationUsage.applicationId, schema.applicationUsage.billingCycle],
      set: { mau: usage.mau, importedAt: usage.importedAt },
    });
}

/*
 * The monthly billing run acts for the operator across organisations; each write below is still
 * given the organisation it bills and scoped by it.
 */

/** What the run needs to bill an organisation: its contract and its trial. */
export async function listOrganizationsToBill(
  executor: Executor,
  contractType: ContractType,
  organizationId: string | undefined,
) {
  const { organization } = schema;
  return executor
    .select({
      id: organization.id,
      trialEndAt: organization.trialEndAt,
      billingCountry: organization.billingCountry,
      licenseMau: organization.licenseMau,
      licenseFeeCents: organization.licenseFeeCents,
      contractPlan: organization.contractPlan,
      supportPlan: organization.supportPlan,
      supportPlanFeeCents: organization.supportPlanFeeCents,
    })
    .from(organization)
    .where(
      and(
        eq(organization.contractType, contractType),
        eq(organization.isFilled, true),
        organizationId ? eq(organization.id, organizationId) : undefined,
      ),
    )
    .orderBy(asc(organization.id));
}

/**
 * The organisation's applications that existed in the cycle (created before it ended), each with
 * its monthly active users of the cycle (0 when none were imported).
 */
export async function listCycleUsage(
  executor: Executor,
  organizationId: string,
  billingCycle: string,
  cycleEnd: Date,
) {
  const { application, applicationUsage } = schema;
  const rows = await executor
    .select({
      applicationId: application.id,
      name: application.name,
      plan: application.plan,
      createdAt: application.createdAt,
      mau: applicationUsage.mau,
    })
    .from(application)
    .leftJoin(
      applicationUsage,
      and(
        eq(applicationUsage.applicationId, application.id),
        eq(applicationUsage.billingCycle, billingCycle),
      ),
    )
    .where(and(eq(application.organizationId, organizationId), lt(application.createdAt, cycleEnd)))
    .orderBy(asc(application.createdAt), asc(application.id));
  return rows.map((row) => ({ ...row, mau: row.mau ?? 0 }));
}

/** The tax rate of a billing country as stored (`"7.00"`), or the default rate. */
export async function findTaxRatePercent(executor: Executor, countryCode: string): Promise<string> {
  const { taxRate } = schema;
  const [row] = await executor
    .select({ ratePercent: taxRate.ratePercent })
    .from(taxRate)
    .where(or(eq(taxRate.countryCode, countryCode), sql`${taxRate.countryCode} IS NULL`))
    .orderBy(sql`${taxRate.countryCode} IS NULL`)
    .limit(1);
  return row?.ratePercent ?? '0';
}

export type InvoiceLineValues = Omit<typeof lines.$inferInsert, 'id' | 'organizationId' | 'transactionId'>;

export async function insertInvoiceLines(
  tx: Tx,
  organizationId: string,
  transactionId: number,
  invoiceLines: InvoiceLineValues[],
) {
  if (invoiceLines.length === 0) return;
  await tx.insert(lines).values(invoiceLines.map((line) => ({ ...line, organizationId, transactionId })));
}

/*
 * The billing jobs act for the operator across organisations, like the monthly run: each write
 * below is still given the organisation it changes and scoped by it.
 */

/** Every application that has a network in its region, with its organisation: what the usage import asks about. */
export async function listApplicationsWithNetwork(executor: Executor) {
  const { application } = schema;
  return executor
    .select({ id: application.id, organizationId: application.organizationId, region: application.region })
    .from(application)
    .where(isNotNull(application.networkId))
    .orderBy(asc(application.id));
}

/** The addresses of the organisation's super-admins, who are told when the account becomes inactive. */
export async function listSuperAdminEmails(executor: Executor, organizationId: string): Promise<string[]> {
  const { member, user } = schema;
  const rows = await executor
    .select({ email: user.email })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(and(eq(member.organizationId, organizationId), eq(member.roleId, SUPER_ADMIN_ROLE)))
    .orderBy(asc(user.email));
  return rows.map((row) => row.email);
}

/**
 * The organisation a transaction belongs to. Only a signed invoice link reads a transaction without
 * knowing its organisation: its signature, given to a member allowed to see the invoice, is the
 * credential, and every read after this one is scoped by the organisation found.
 */
export async function findTransactionOrganizationId(
  executor: Executor,
  transactionId: number,
): Promise<string | undefined> {
  const [row] = await executor
    .select({ organizationId: transactions.organizationId })
    .from(transactions)
    .where(eq(transactions.id, transactionId))
    .limit(1);
  return row?.organizationId;
}

/** The organisation's name and billing details, as its invoices show them. */
export async function findBillingDetails(executor: Executor, organizationId: string) {
  const { organization } = schema;
  const [row] = await executor
    .select({
      name: organization.name,
      billingName: organization.billingName,
      billingAddress: organization.billingAddress,
      billingAddress2: organization.billingAddress2,
      billingCity: organization.billingCity,
      billingZipCode: organization.billingZipCode,
      billingState: organization.billingState,
      billingCountry: organization.billingCountry,
      vatNumber: organization.vatNumber,
    })
    .from(organization)
    .where(eq(organization.id, organizationId));
  return row;
}

/**
 * The organisation's imported monthly active users in the given months (`YYYY-MM`), each with its
 * application's current name; applications in the order they were created, months oldest first.
 */
export async function listMonthlyUsage(executor: Executor, organizationId: string, billingCycles: string[]) {
  const { application, applicationUsage } = schema;
  if (billingCycles.length === 0) return [];
  return executor
    .select({
      applicationId: application.id,
      name: application.name,
      billingCycle: applicationUsage.billingCycle,
      mau: applicationUsage.mau,
    })
    .from(applicationUsage)
    .innerJoin(
      application,
      and(eq(application.id, applicationUsage.applicationId), eq(application.organizationId, organizationId)),
    )
    .where(
      and(
        eq(applicationUsage.organizationId, organizationId),
        inArray(applicationUsage.billingCycle, billingCycles),
      ),
    )
    .orderBy(asc(application.createdAt), asc(application.id), asc(applicationUsage.billingCycle));
}
