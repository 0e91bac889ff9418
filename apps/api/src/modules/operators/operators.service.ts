import type {
  AuditValue,
  CreateMiscellaneousChargeRequest,
  CreateMiscellaneousChargeResponse,
  GrantCreditRequest,
  GrantCreditResponse,
  ImportUsageRequest,
  ImportUsageResponse,
  ListOperatorOrganizationsQuery,
  ListOperatorOrganizationsResponse,
  OperatorOrganization,
  OperatorOrganizationSummary,
  ResetTwoFactorRequest,
  ResetTwoFactorResponse,
  RunBillingRequest,
  RunBillingResponse,
  SetBillingCountryRequest,
  SetContractRequest,
  SetFreeCreditRequest,
  SetLimitsRequest,
  SetStatusRequest,
  VoidMiscellaneousChargeRequest,
  VoidMiscellaneousChargeResponse,
} from '@portal/contracts';
import { OPERATOR_ORGANIZATION_PAGE_SIZE, padTransactionId } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { JobQueue } from '../../plugins/job-queue.ts';
import type { RegionClient } from '../../regions/region-client.ts';
import {
  hasCardPayment,
  lockOrganization,
  updateOrganization,
  type OrganizationChanges,
} from '../accounts/accounts.repository.ts';
import { operatorAuditContext, type RequestOrigin } from '../audit-log/audit-context.ts';
import { changedFields, record } from '../audit-log/audit-log.record.ts';
import {
  billingCycleOf,
  centsToUsd,
  ratePercentToBasisPoints,
  taxCents,
  usdToCents,
} from '../billing/billing-rules.ts';
import { findTaxRatePercent } from '../billing/billing.repository.ts';
import { importUsage, sendOwedInactiveNotices } from '../billing/billing.jobs.ts';
import type { Billing } from '../billing/billing.plugin.ts';
import { auditAmount, type LedgerService } from '../ledger/ledger.service.ts';
import { isKnownCountry, isKnownSubdivision } from '../utils/geography.ts';
import { queueTwoFactorResetMail } from './operators.jobs.ts';
import {
  countApplicationsAndMembers,
  findOrganization,
  findOrganizationIdOfMemberEmail,
  listOrganizations,
  lockUserByEmail,
  removeSecondFactorAndEndSessions,
  type OrganizationRow,
} from './operators.repository.ts';

export interface OperatorsDeps {
  db: Db;
  regions: RegionClient;
  jobQueue: JobQueue;
  /** Credit grants and the account status. */
  ledger: LedgerService;
  monthlyRun: Billing['monthlyRun'];
  /** What follows an import: the usage alerts of the organisations it changed. */
  afterUsageImport: (cycle: string, organizationIds: Iterable<string>) => Promise<void>;
  now?: () => Date;
}

/** What a PAYG contract keeps of the flat-rate fields: their defaults. */
const PAYG_CONTRACT = {
  contractType: 'payg',
  licenseMau: 0,
  licenseFeeCents: 0,
  contractPlan: 'advance',
  supportPlan: '',
  supportPlanFeeCents: 0,
} as const;

/** What each of the operator's changes to an organisation shows in its audit log, by field. */
const AUDITED_FIELDS = {
  'operator.contract_changed': (row) => ({
    contractType: row.contractType,
    licenseMau: row.licenseMau,
    licenseFee: auditAmount(row.licenseFeeCents),
    overagePlan: row.contractPlan,
    supportPlan: row.supportPlan,
    supportPlanFee: auditAmount(row.supportPlanFeeCents),
  }),
  'operator.limits_changed': (row) => ({
    applicationLimit: row.applicationLimit,
    memberLimit: row.memberLimit,
  }),
  'operator.billing_country_changed': (row) => ({
    billingCountry: row.billingCountry,
    billingState: row.billingState,
  }),
  'operator.free_credit_changed': (row) => ({ freeCredit: row.isFreeCredit }),
} satisfies Record<string, (row: OrganizationRow) => Record<string, AuditValue>>;

function toSummary(row: OrganizationRow): OperatorOrganizationSummary {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    contractType: row.contractType,
    accountStatus: row.accountStatus,
    inactiveReason: row.inactiveReason,
    isAccountFilled: row.isFilled,
    balance: centsToUsd(row.balanceCents),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The operator's work on organisations and on billing, for the operator API (`npm run portal`). */
export function operatorsService({
  db,
  regions,
  jobQueue,
  ledger,
  monthlyRun,
  afterUsageImport,
  now = () => new Date(),
}: OperatorsDeps) {
  /** An organisation named by its id or by the address of one of its members; 404 when there is none. */
  async function resolveOrganizationId(reference: string): Promise<string> {
    const organizationId = reference.includes('@')
      ? await findOrganizationIdOfMemberEmail(db, reference)
      : (await findOrganization(db, reference))?.id;
    if (!organizationId) {
      throw new AppError('NOT_FOUND', {
        message: `No organisation has the id or a member with the address ${reference}.`,
      });
    }
    return organizationId;
  }

  async function present(organizationId: string): Promise<OperatorOrganization> {
    const row = await findOrganization(db, organizationId);
    if (!row) throw new AppError('NOT_FOUND');
    return {
      ...toSummary(row),
      trialEndAt: row.trialEndAt?.toISOString() ?? null,
      billingCountry: row.billingCountry,
      billingCountryLocked: await hasCardPayment(db, organizationId),
      isFreeCredit: row.isFreeCredit,
      minimumBalance: centsToUsd(row.minimumBalanceCents),
      contract: {
        type: row.contractType,
        licenseMau: row.licenseMau,
        licenseFee: centsToUsd(row.licenseFeeCents),
        overagePlan: row.contractPlan,
        supportPlan: row.supportPlan,
        supportPlanFee: centsToUsd(row.supportPlanFeeCents),
      },
      limits: { applications: row.applicationLimit, members: row.memberLimit },
      usage: await countApplicationsAndMembers(db, organizationId),
    };
  }

  /**
   * Changes the organisation a reference names with the values `change` makes of its row, and
   * records in the same transaction the fields of `action` that changed; a change that changes none
   * records nothing.
   */
  async function update(
    reference: string,
    origin: RequestOrigin,
    action: keyof typeof AUDITED_FIELDS,
    change: (current: OrganizationRow) => OrganizationChanges,
  ) {
    const organizationId = await resolveOrganizationId(reference);
    await db.transaction(async (tx) => {
      const before = await lockOrganization(tx, organizationId);
      if (!before) throw new AppError('NOT_FOUND');
      const after = await updateOrganization(tx, organizationId, change(before));
      if (!after) throw new AppError('NOT_FOUND');
      const changes = changedFields(AUDITED_FIELDS[action](before), AUDITED_FIELDS[action](after));
      if (Object.keys(changes).length === 0) return;
      await record(tx, {
        organizationId,
        action,
        target: { type: 'organization', id: organizationId, name: after.name },
        changes,
        context: operatorAuditContext(origin),
      });
    });
    return present(organizationId);
  }

  return {
    async list(query: ListOperatorOrganizationsQuery): Promise<ListOperatorOrganizationsResponse> {
      const { rows, total } = await listOrganizations(db, {
        number: query.page,
        size: OPERATOR_ORGANIZATION_PAGE_SIZE,
      });
      return { data: rows.map(toSummary), total };
    },

    async get(reference: string): Promise<OperatorOrganization> {
      return present(await resolveOrganizationId(reference));
    },

    /** Replaces the contract; from the next month's bill on, the organisation is billed by it. */
    async setContract(
      reference: string,
      contract: SetContractRequest,
      origin: RequestOrigin,
    ): Promise<OperatorOrganization> {
      if (contract.type === 'payg')
        return update(reference, origin, 'operator.contract_changed', () => PAYG_CONTRACT);
      return update(reference, origin, 'operator.contract_changed', () => ({
        contractType: 'flat_rate',
        licenseMau: contract.licenseMau ?? 0,
        licenseFeeCents: usdToCents(contract.licenseFee ?? '0'),
        contractPlan: contract.overagePlan ?? PAYG_CONTRACT.contractPlan,
        supportPlan: contract.supportPlan ?? '',
        supportPlanFeeCents: usdToCents(contract.supportPlanFee ?? '0'),
      }));
    },

    /** New limits hold for what is added from now on; what exists above them stays. */
    async setLimits(
      reference: string,
      limits: SetLimitsRequest,
      origin: RequestOrigin,
    ): Promise<OperatorOrganization> {
      return update(reference, origin, 'operator.limits_changed', () => ({
        ...(limits.applications !== undefined && { applicationLimit: limits.applications }),
        ...(limits.members !== undefined && { memberLimit: limits.members }),
      }));
    },

    /** Sets the account status as the ledger's rule for an operator's word has it. */
    async setStatus(
      reference: string,
      { status }: SetStatusRequest,
      origin: RequestOrigin,
    ): Promise<OperatorOrganization> {
      const organizationId = await resolveOrganizationId(reference);
      await ledger.setStatusByOperator(organizationId, status, operatorAuditContext(origin));
      return present(organizationId);
    },

    /**
     * Sets the billing country, the tax of the next top-ups and invoices, also once a card payment
     * has fixed it for members (decision 030). A state that is not one of the new country's is
     * cleared, for the member to choose again.
     */
    async setBillingCountry(
      reference: string,
      { country }: SetBillingCountryRequest,
      origin: RequestOrigin,
    ): Promise<OperatorOrganization> {
      // An unknown organisation is a 404 before a bad country is a 400.
      await resolveOrganizationId(reference);
      if (!isKnownCountry(country)) {
        throw new AppError('VALIDATION_ERROR', {
          field: 'country',
          message: `country: ${country} is not a country the portal knows (ISO 3166-1, such as SG).`,
        });
      }
      return update(reference, origin, 'operator.billing_country_changed', (current) => ({
        billingCountry: country,
        ...(!isKnownSubdivision(country, current.billingState) && { billingState: '' }),
      }));
    },

    async setFreeCredit(
      reference: string,
      { enabled }: SetFreeCreditRequest,
      origin: RequestOrigin,
    ): Promise<OperatorOrganization> {
      return update(reference, origin, 'operator.free_credit_changed', () => ({ isFreeCredit: enabled }));
    },

    async grantCredit(
      reference: string,
      { amount, note, idempotencyKey }: GrantCreditRequest,
      origin: RequestOrigin,
    ): Promise<GrantCreditResponse> {
      const organizationId = await resolveOrganizationId(reference);
      const grant = await ledger.grantCredit(organizationId, {
        amountCents: usdToCents(amount),
        note,
        idempotencyKey,
        now: now(),
        context: operatorAuditContext(origin),
      });
      return {
        transactionId: padTransactionId(grant.transactionId),
        amount: centsToUsd(grant.amountCents),
        balance: centsToUsd(grant.balanceCents),
        alreadyGranted: grant.alreadyGranted,
      };
    },

    /**
     * Raises a miscellaneous charge (decision 040): the amount typed before tax, the tax of the
     * organisation's billing country added to it at today's rate (as on a flat-rate invoice),
     * open until the organisation pays it by card.
     */
    async createMiscellaneousCharge(
      reference: string,
      { amount, notes, idempotencyKey }: CreateMiscellaneousChargeRequest,
      origin: RequestOrigin,
    ): Promise<CreateMiscellaneousChargeResponse> {
      const organizationId = await resolveOrganizationId(reference);
      const organization = await findOrganization(db, organizationId);
      if (!organization) throw new AppError('NOT_FOUND');
      const subtotalCents = usdToCents(amount);
      const taxRatePercent = await findTaxRatePercent(db, organization.billingCountry);
      const taxAmountCents = taxCents(subtotalCents, ratePercentToBasisPoints(taxRatePercent));
      const { transaction, alreadyCreated } = await ledger.openMiscellaneousCharge(
        organizationId,
        { amountCents: subtotalCents + taxAmountCents, taxAmountCents, taxRatePercent, notes },
        { idempotencyKey, context: operatorAuditContext(origin) },
      );
      return {
        transactionId: padTransactionId(transaction.id),
        status: transaction.status,
        notes: transaction.notes,
        amount: centsToUsd(transaction.amountCents - transaction.taxAmountCents),
        tax: centsToUsd(transaction.taxAmountCents),
        taxPercentage: Number(transaction.taxRatePercent),
        total: centsToUsd(transaction.amountCents),
        alreadyCreated,
      };
    },

    /**
     * Voids a miscellaneous charge raised by mistake (decision 040, "Voiding"): it is no longer due
     * and the organisation can no longer pay it; the reason is kept in its audit log.
     */
    async voidMiscellaneousCharge(
      reference: string,
      transactionId: string,
      { reason }: VoidMiscellaneousChargeRequest,
      origin: RequestOrigin,
    ): Promise<VoidMiscellaneousChargeResponse> {
      const organizationId = await resolveOrganizationId(reference);
      const { transaction, alreadyVoided } = await ledger.voidMiscellaneousCharge(
        organizationId,
        Number(transactionId),
        { reason, context: operatorAuditContext(origin) },
      );
      return {
        transactionId: padTransactionId(transaction.id),
        status: transaction.status,
        notes: transaction.notes,
        total: centsToUsd(transaction.amountCents),
        alreadyVoided,
      };
    },

    /** Imports a month's usage (the current month by default) from every region, and answers once it is recorded. */
    async importUsage({ month }: ImportUsageRequest): Promise<ImportUsageResponse> {
      const cycle = month ?? billingCycleOf(now());
      let imported;
      try {
        imported = await importUsage({ db, regions, now }, cycle);
      } catch (error) {
        throw new AppError('REGION_UNAVAILABLE', { message: (error as Error).message });
      }
      await afterUsageImport(cycle, imported.organizationIds);
      return { month: cycle, recorded: imported.recorded };
    },

    /**
     * Bills a month that has ended, for every organisation or one: each at most once however often
     * this runs, the accounts it makes inactive told as the monthly job tells them.
     */
    async runBilling({ month, organization }: RunBillingRequest): Promise<RunBillingResponse> {
      const organizationId = organization ? await resolveOrganizationId(organization) : undefined;
      const at = now();
      // Months as YYYY-MM order as text: one has ended once the current month is after it.
      if (billingCycleOf(at) <= month) {
        throw new AppError('VALIDATION_ERROR', {
          field: 'month',
          message: `month: ${month} has not ended yet; a month is billed once it is over.`,
        });
      }
      const run = await monthlyRun.runMonthlyBilling({ cycle: month, organizationId, now: at });
      await sendOwedInactiveNotices({ db, jobQueue });
      return {
        month: run.cycle,
        billed: run.billed.map((billed) => ({
          organizationId: billed.organizationId,
          transactionId: padTransactionId(billed.transactionId),
          status: billed.status,
          charge: centsToUsd(billed.chargeCents),
          credit: centsToUsd(billed.creditCents),
          paid: centsToUsd(billed.paidCents),
          due: centsToUsd(billed.dueCents),
        })),
        alreadyBilled: run.alreadyBilled,
        becameInactive: run.becameInactive,
        failed: run.failed,
      };
    },

    /**
     * Removes a person's second factor and ends all their sessions in one transaction, recorded in
     * their organisation's audit log (a person without one has no log), then queues the notice
     * mailed to them. Repeating it is harmless: it ends the sessions again and says there was no
     * second factor.
     */
    async resetTwoFactor(
      { email }: ResetTwoFactorRequest,
      origin: RequestOrigin,
    ): Promise<ResetTwoFactorResponse> {
      const user = await db.transaction(async (tx) => {
        const found = await lockUserByEmail(tx, email);
        if (!found) throw new AppError('NOT_FOUND', { message: `Nobody has the address ${email}.` });
        await removeSecondFactorAndEndSessions(tx, found.id);
        if (found.organizationId && found.memberId) {
          await record(tx, {
            organizationId: found.organizationId,
            action: 'two_factor.reset_by_operator',
            target: { type: 'member', id: found.memberId, name: found.email },
            changes: { twoFactorEnabled: { before: found.twoFactorEnabled, after: false } },
            context: operatorAuditContext(origin),
          });
        }
        return found;
      });
      const reset: ResetTwoFactorResponse = {
        email: user.email,
        organizationId: user.organizationId,
        hadSecondFactor: user.twoFactorEnabled,
        requireTwoFactor: user.requireTwoFactor === true,
      };
      await queueTwoFactorResetMail(jobQueue, {
        userId: user.id,
        to: user.email,
        hadSecondFactor: reset.hadSecondFactor,
        requireTwoFactor: reset.requireTwoFactor,
        resetAt: now().toISOString(),
      });
      return reset;
    },
  };
}
