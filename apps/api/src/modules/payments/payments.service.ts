import crypto from 'node:crypto';
import {
  CARD_TYPE_LABELS,
  CARD_TYPES,
  padTransactionId,
  topUpSummary,
  type AddPaymentProfileResponse,
  type CardType,
  type ErrorCode,
  type PayTransactionResponse,
  type PaymentGatewayConfiguration,
  type PaymentProfile,
  type TopUpRequest,
  type TopUpResponse,
} from '@portal/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { SessionUser } from '../../auth/session.ts';
import type { CardAttemptLimits } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import {
  CardRefusedError,
  GatewayUnavailableError,
  type CardRefusal,
  type ChargeOutcome,
  type ChargeRequest,
  type GatewayCard,
  type PaymentGateway,
} from '../../payments/payment-gateway.ts';
import type { ReportedPaymentIntent } from '../../payments/stripe-gateway.ts';
import { assertPermission } from '../../plugins/authenticate.ts';
import type { PortalMetrics } from '../../plugins/metrics.ts';
import { listFreeCreditTiers } from '../accounts/accounts.repository.ts';
import {
  SYSTEM_AUDIT_CONTEXT,
  memberAuditContext,
  type AuditContext,
  type RequestOrigin,
} from '../audit-log/audit-context.ts';
import { record, type AuditTarget } from '../audit-log/audit-log.record.ts';
import { requireTransaction } from '../billing/billing-reads.ts';
import { centsToUsd } from '../billing/billing-rules.ts';
import { findTaxRatePercent } from '../billing/billing.repository.ts';
import {
  findCreditAmount,
  findTransaction,
  listOpenChargeIds,
  lockBalance,
} from '../ledger/ledger.repository.ts';
import {
  activateWhenNothingDue,
  claimTransactionForPayment,
  finishTransactionPayment,
  payChargeByCard,
  recordTopUp,
  type LedgerService,
} from '../ledger/ledger.service.ts';
import { requireMembership } from '../members/members.service.ts';
import {
  deletePaymentProfile,
  findAttempt,
  findAttemptByIdempotencyKey,
  findPayingOrganization,
  findPaymentProfile,
  hasPaymentProfile,
  insertPaymentAttempt,
  insertPaymentProfile,
  listPaymentProfiles,
  lockPaymentProfiles,
  lockPendingAttempt,
  setDefaultPaymentProfile,
  setHasPaymentProfile,
  settleAttempt,
  storeGatewayCustomerRef,
  type NewPaymentAttempt,
  type PaymentAttemptRow,
  type PaymentProfileRow,
} from './payments.repository.ts';
import { claimCardAttempt, settleCardAttemptWith, type CardAttemptCaller } from './card-attempts.ts';
import { transactionPaidFor } from './paid-for.ts';

const REFUSAL_ERRORS: Record<CardRefusal, ErrorCode> = {
  card_declined: 'CARD_DECLINED',
  insufficient_funds: 'CARD_INSUFFICIENT_FUNDS',
  expired_card: 'CARD_EXPIRED',
  card_not_supported: 'CARD_NOT_SUPPORTED',
  invalid_token: 'CARD_TOKEN_INVALID',
  authentication_required: 'CARD_AUTHENTICATION_REQUIRED',
  // Only a reconciliation settles with it (an attempt over a day old); no live request gets it.
  attempt_expired: 'CARD_DECLINED',
};

/** The characters of a gateway's token id (the sandbox's tok_…, Stripe's pm_…). */
const GATEWAY_TOKEN_ID = /^[\x21-\x7e]+$/;

export interface PaymentsDeps {
  db: Db;
  gateway: PaymentGateway;
  /** Writes what a payment pays and decides the account status it leads to. */
  ledger: LedgerService;
  cardAttemptLimits: CardAttemptLimits;
  /** Called once a charge has succeeded and its ledger rows are written (the receipt mail). */
  onPaymentSucceeded: (attempt: PaymentAttemptRow) => Promise<void>;
  /** Counts each attempt's outcome. */
  metrics: Pick<PortalMetrics, 'paymentAttemptSettled' | 'paymentAttemptUnconfirmed'>;
  now?: () => Date;
}

type PayingOrganization = NonNullable<Awaited<ReturnType<typeof findPayingOrganization>>>;

/** A card the caller names: a fresh token from the card form, or a saved card. */
type PaymentSource = Pick<NewPaymentAttempt, 'sourceToken' | 'paymentMethodRef' | 'customerRef'>;

/**
 * What settling an attempt found: the attempt as it now stands, whether this call settled it, and
 * whether the payment made an inactive account active again.
 */
interface Settlement {
  attempt: PaymentAttemptRow;
  settledNow: boolean;
  accountReactivated: boolean;
}

/** A charge settled as succeeded, and whether it made the inactive account active again. */
type PaidAttempt = PaymentAttemptRow & { accountReactivated: boolean };

function refusalError(refusal: CardRefusal | string | null): AppError {
  const code = REFUSAL_ERRORS[refusal as CardRefusal] ?? 'CARD_DECLINED';
  return new AppError(code, { field: 'token' });
}

/**
 * The one rule on brands, checked before every card is saved or charged (a one-time token's brand as
 * the gateway reads it, a saved card's as it was saved): the portal takes VISA, Mastercard, AMEX and
 * Discover only.
 */
function refuseUnsupportedBrand(brand: string): asserts brand is CardType {
  if (!(CARD_TYPES as readonly string[]).includes(brand))
    throw new AppError('CARD_NOT_SUPPORTED', { field: 'token' });
}

/** A gateway failure before anything was charged, in the API's words. */
function gatewayError(error: unknown): unknown {
  if (error instanceof CardRefusedError) return refusalError(error.refusal);
  if (error instanceof GatewayUnavailableError) return new AppError('PAYMENT_GATEWAY_UNAVAILABLE');
  return error;
}

/** A card as the audit log names it: its brand and last four digits, never more of its number. */
function cardName(brand: string, last4: string): string {
  return `${CARD_TYPE_LABELS[brand as CardType] ?? brand} •••• ${last4}`;
}

function cardTarget(row: PaymentProfileRow): AuditTarget {
  return { type: 'card', id: row.id, name: cardName(row.cardType, row.last4) };
}

function toPaymentProfile(row: PaymentProfileRow): PaymentProfile {
  return {
    id: row.id,
    cardType: row.cardType,
    maskedCardNumber: `**** **** **** ${row.last4}`,
    expirationMonth: row.expMonth,
    expirationYear: row.expYear,
    defaultPayment: row.isDefault,
  };
}

/** The gateway request an attempt stands for: asking again with it is how an unknown outcome is learned. */
async function chargeRequestOf(db: Db, attempt: PaymentAttemptRow): Promise<ChargeRequest> {
  const description =
    attempt.purpose === 'topup'
      ? 'Prepaid balance top-up'
      : await transactionPaidFor(db, attempt.organizationId, attempt.invoiceTransactionId ?? 0);
  return {
    amountCents: attempt.amountCents,
    idempotencyKey: attempt.idempotencyKey,
    description,
    source: attempt.sourceToken
      ? { token: attempt.sourceToken }
      : { paymentMethodRef: attempt.paymentMethodRef ?? '', customerRef: attempt.customerRef },
    attemptCreatedAt: attempt.createdAt,
  };
}

export function paymentsService({
  db,
  gateway,
  ledger,
  cardAttemptLimits,
  onPaymentSucceeded,
  metrics,
  now = () => new Date(),
}: PaymentsDeps) {
  async function callerMembership(user: SessionUser) {
    const membership = await requireMembership(db, user);
    assertPermission(membership.member.roleId, 'VIEW_BILLING');
    const organization = await findPayingOrganization(db, membership.organization.id);
    if (!organization) throw new AppError('NOT_FOUND');
    return { organization, membership };
  }

  async function callerOrganization(user: SessionUser) {
    return (await callerMembership(user)).organization;
  }

  /** The caller's organisation, with the context of the changes the caller makes to it. */
  async function auditedCaller(user: SessionUser, origin: RequestOrigin) {
    const { organization, membership } = await callerMembership(user);
    return { organization, membership, context: memberAuditContext(origin, user, membership) };
  }

  /**
   * The caller's organisation, the caller as the card-attempt limits count them, and the context of
   * what the caller's card pays.
   */
  async function cardCaller(user: SessionUser, origin: RequestOrigin) {
    const { organization, membership, context } = await auditedCaller(user, origin);
    const caller: CardAttemptCaller = {
      organizationId: organization.id,
      memberId: membership.member.id,
      // A member's request always has its address; only work without a request has none.
      ip: origin.ip ?? '',
    };
    return { organization, caller, context };
  }

  /** The brand of the card a one-time token stands for, read from the gateway without using the token. */
  async function tokenBrand(token: string): Promise<CardType> {
    let card: GatewayCard;
    try {
      // Gateways' token ids are printable ASCII; anything else (a lone surrogate cannot even be put
      // in the gateway's URL) names no card.
      if (!GATEWAY_TOKEN_ID.test(token))
        throw new CardRefusedError('invalid_token', 'This card token is unknown.');
      card = await gateway.tokenCard(token);
    } catch (error) {
      throw gatewayError(error);
    }
    refuseUnsupportedBrand(card.brand);
    return card.brand;
  }

  /** The card a charge names, a token's or a saved one, its brand checked. */
  async function chargeableSource(
    organization: PayingOrganization,
    request: { token?: string; paymentProfileId?: string },
  ): Promise<PaymentSource> {
    if (request.token) {
      await tokenBrand(request.token);
      return { sourceToken: request.token, paymentMethodRef: null, customerRef: null };
    }
    const profile = await findPaymentProfile(db, organization.id, request.paymentProfileId ?? '');
    if (!profile) throw new AppError('NOT_FOUND', { field: 'paymentProfileId' });
    refuseUnsupportedBrand(profile.cardType);
    return {
      sourceToken: null,
      paymentMethodRef: profile.paymentMethodRef,
      customerRef: organization.gatewayCustomerRef,
    };
  }

  /**
   * The organisation's one customer at the gateway: made with its first card and stored once. A
   * request that loses the race to store it uses the winner's (its own stays empty at the gateway).
   */
  async function customerOf(organization: PayingOrganization): Promise<string> {
    if (organization.gatewayCustomerRef) return organization.gatewayCustomerRef;
    let made: string;
    try {
      made = await gateway.createCustomer(organization.id);
    } catch (error) {
      throw gatewayError(error);
    }
    return storeGatewayCustomerRef(db, organization.id, made, null);
  }

  /**
   * Writes what a successful charge paid for, and its audit entry, in the database transaction that
   * settles its attempt.
   */
  async function recordPayment(
    tx: Tx,
    attempt: PaymentAttemptRow,
    { paidAt, card, context }: { paidAt: Date; card: string; context: AuditContext },
  ): Promise<number> {
    const organizationId = attempt.organizationId;
    if (attempt.purpose === 'invoice') {
      const transactionId = attempt.invoiceTransactionId;
      if (transactionId === null) throw new Error(`payment attempt ${attempt.id} names no transaction`);
      await payChargeByCard(
        tx,
        organizationId,
        transactionId,
        { paidCents: attempt.amountCents, paidAt, card },
        context,
      );
      return transactionId;
    }
    return recordTopUp(tx, organizationId, attempt, { paidAt, card, context });
  }

  /**
   * Settles a pending attempt with the gateway's outcome, with the ledger rows it causes and their
   * audit entries (made in `context`), in one database transaction; an attempt another request or
   * the reconciliation settled first is left as it is (the row lock orders them).
   */
  async function settle(
    attempt: PaymentAttemptRow,
    outcome: ChargeOutcome,
    context: AuditContext,
  ): Promise<Settlement> {
    const settledAt = now();
    const settlement = await db.transaction(async (tx): Promise<Settlement> => {
      // One settlement of an organisation at a time: each sees what the one before it paid, so the
      // one that pays the last debt is the one that reactivates the account.
      await lockBalance(tx, attempt.organizationId);
      const pending = await lockPendingAttempt(tx, attempt.organizationId, attempt.id);
      if (!pending) {
        const current = await findAttempt(tx, attempt.organizationId, attempt.id);
        if (!current) throw new Error(`payment attempt ${attempt.id} is gone`);
        return { attempt: current, settledNow: false, accountReactivated: false };
      }
      if (outcome.outcome === 'refused') {
        if (pending.invoiceTransactionId !== null) {
          await finishTransactionPayment(tx, pending.organizationId, pending.invoiceTransactionId, 'refused');
        }
        const values = {
          status: 'refused' as const,
          chargeRef: null,
          refusal: outcome.refusal,
          cardBrand: null,
          cardLast4: null,
          resultTransactionId: null,
          settledAt,
        };
        await settleAttempt(tx, pending.organizationId, pending.id, values);
        return { attempt: { ...pending, ...values }, settledNow: true, accountReactivated: false };
      }
      const resultTransactionId = await recordPayment(tx, pending, {
        paidAt: settledAt,
        card: cardName(outcome.card.brand, outcome.card.last4),
        context,
      });
      const values = {
        status: 'succeeded' as const,
        chargeRef: outcome.chargeRef,
        refusal: null,
        cardBrand: outcome.card.brand,
        cardLast4: outcome.card.last4,
        resultTransactionId,
        settledAt,
      };
      await settleAttempt(tx, pending.organizationId, pending.id, values);
      // In the same transaction, so a crash cannot leave an account that owes nothing inactive.
      const accountReactivated = await activateWhenNothingDue(tx, pending.organizationId);
      return { attempt: { ...pending, ...values }, settledNow: true, accountReactivated };
    });
    const { status, purpose } = settlement.attempt;
    if (settlement.settledNow && status !== 'pending') metrics.paymentAttemptSettled(purpose, status);
    // The daily sweep of forgotten reactivations covers a crash before this job is sent.
    if (settlement.accountReactivated) await ledger.accountReactivated(attempt.organizationId);
    if (settlement.settledNow && settlement.attempt.status === 'succeeded') {
      await onPaymentSucceeded(settlement.attempt);
    }
    return settlement;
  }

  /**
   * Charges the card an attempt names and settles the attempt. An unknown outcome (the gateway did
   * not answer) leaves the attempt pending for the reconciliation and tells the caller so.
   */
  async function runAttempt(attempt: PaymentAttemptRow, context: AuditContext): Promise<PaidAttempt> {
    let outcome: ChargeOutcome;
    try {
      outcome = await gateway.charge(await chargeRequestOf(db, attempt));
    } catch (error) {
      if (error instanceof GatewayUnavailableError) {
        metrics.paymentAttemptUnconfirmed(attempt.purpose);
        throw new AppError('PAYMENT_NOT_CONFIRMED');
      }
      throw error;
    }
    const { attempt: settled, accountReactivated } = await settle(attempt, outcome, context);
    if (settled.status === 'refused') throw refusalError(settled.refusal);
    if (settled.status === 'pending') throw new AppError('PAYMENT_NOT_CONFIRMED');
    return { ...settled, accountReactivated };
  }

  /**
   * Pays what a charge (service or miscellaneous) still owes by card: the transaction goes from open
   * to processing with the attempt written, then paid (or open again when the card is refused). With
   * a `caller`, the card attempt is claimed once the transaction is (a pay of one already being paid
   * tries no card). The payment is recorded as made in `context`.
   */
  async function payTransactionWith(
    organizationId: string,
    transactionId: number,
    source: PaymentSource,
    { caller, context }: { caller?: CardAttemptCaller; context: AuditContext },
  ) {
    const claimed = await db.transaction(async (tx) => {
      const transaction = await claimTransactionForPayment(tx, organizationId, transactionId);
      if (!transaction) return undefined;
      const cardAttemptId = caller && (await claimCardAttempt(tx, caller, 'invoice', cardAttemptLimits));
      const creditCents = transaction.creditTransactionId
        ? await findCreditAmount(tx, organizationId, transaction.creditTransactionId)
        : 0;
      const dueCents = transaction.amountCents - creditCents - transaction.paymentAmountCents;
      if (dueCents <= 0) throw new Error(`transaction ${transaction.id} is open with nothing due`);
      const attempt = await insertPaymentAttempt(tx, organizationId, {
        idempotencyKey: crypto.randomUUID(),
        purpose: 'invoice',
        invoiceTransactionId: transaction.id,
        amountCents: dueCents,
        ...source,
      });
      return { attempt, cardAttemptId };
    });
    if (!claimed) throw new AppError('TRANSACTION_NOT_PAYABLE');
    const { attempt, cardAttemptId } = claimed;
    if (cardAttemptId === undefined) return runAttempt(attempt, context);
    return settleCardAttemptWith(db, cardAttemptId, () => runAttempt(attempt, context));
  }

  /**
   * Settles an attempt with an outcome learned after its request, as the reconciliation does: the
   * payment is then recorded as the system's, whoever started it.
   */
  async function settleLate(attempt: PaymentAttemptRow, outcome: ChargeOutcome) {
    const { attempt: settled } = await settle(attempt, outcome, SYSTEM_AUDIT_CONTEXT);
    return settled.status;
  }

  /**
   * Removes a saved card and records it (`reason`: why the portal removed it, when the member did
   * not ask); another card, the newest, takes over as the default, recorded too.
   */
  async function removeProfileRow(
    organizationId: string,
    profileId: string,
    { context, reason }: { context: AuditContext; reason?: string },
  ) {
    return db.transaction(async (tx) => {
      await lockPaymentProfiles(tx, organizationId);
      const removed = await deletePaymentProfile(tx, organizationId, profileId);
      if (!removed) return undefined;
      await record(tx, {
        organizationId,
        action: 'billing.card_removed',
        target: cardTarget(removed),
        changes: {
          default: { before: removed.isDefault },
          ...(reason !== undefined && { reason: { after: reason } }),
        },
        context,
      });
      const [next] = await listPaymentProfiles(tx, organizationId);
      if (!next) await setHasPaymentProfile(tx, organizationId, false);
      else if (removed.isDefault) {
        await setDefaultPaymentProfile(tx, organizationId, next.id);
        await record(tx, {
          organizationId,
          action: 'billing.card_made_default',
          target: cardTarget(next),
          changes: { default: { before: false, after: true }, reason: { after: 'default_card_removed' } },
          context,
        });
      }
      return removed;
    });
  }

  /**
   * Saves a card whose brand was checked, recorded as added in `context`, and pays what an inactive
   * account owes with it.
   */
  async function saveProfile(
    organization: PayingOrganization,
    { token, cardType, setAsDefault }: { token: string; cardType: CardType; setAsDefault: boolean },
    context: AuditContext,
  ): Promise<AddPaymentProfileResponse> {
    const customerRef = await customerOf(organization);
    let saved: Awaited<ReturnType<PaymentGateway['saveCard']>>;
    try {
      saved = await gateway.saveCard({ token, customerRef, organizationId: organization.id });
    } catch (error) {
      throw gatewayError(error);
    }
    const { card } = saved;
    // The gateway made the customer again, having lost it: stored unless another save did so first,
    // whose customer this card is not under (the token is used up, so it must be entered again).
    if (
      saved.customerRef !== customerRef &&
      (await storeGatewayCustomerRef(db, organization.id, saved.customerRef, customerRef)) !==
        saved.customerRef
    ) {
      await gateway.removeCard(card.paymentMethodRef);
      throw new AppError('CARD_TOKEN_INVALID', { field: 'token' });
    }
    const profile = await db.transaction(async (tx) => {
      await lockPaymentProfiles(tx, organization.id);
      const first = !(await hasPaymentProfile(tx, organization.id));
      if (first) await setHasPaymentProfile(tx, organization.id, true);
      const row = await insertPaymentProfile(tx, organization.id, {
        id: crypto.randomUUID(),
        provider: gateway.provider,
        paymentMethodRef: card.paymentMethodRef,
        cardType,
        last4: card.last4,
        expMonth: card.expMonth,
        expYear: card.expYear,
        isDefault: false,
      });
      const isDefault = setAsDefault || first;
      if (isDefault) await setDefaultPaymentProfile(tx, organization.id, row.id);
      await record(tx, {
        organizationId: organization.id,
        action: 'billing.card_added',
        target: cardTarget(row),
        changes: {
          expiry: { after: `${String(row.expMonth).padStart(2, '0')}/${row.expYear}` },
          default: { after: isDefault },
        },
        context,
      });
      return { ...row, isDefault };
    });
    let accountReactivated = false;
    if (organization.accountStatus === 'inactive') {
      const source = {
        sourceToken: null,
        paymentMethodRef: card.paymentMethodRef,
        customerRef: saved.customerRef,
      };
      try {
        for (const charge of await listOpenChargeIds(db, organization.id)) {
          const paid = await payTransactionWith(organization.id, charge, source, { context });
          accountReactivated ||= paid.accountReactivated;
        }
      } catch (error) {
        // A card refused for what is due is not kept; one whose payment is unconfirmed stays.
        if (error instanceof AppError && error.code !== 'PAYMENT_NOT_CONFIRMED') {
          await removeProfileRow(organization.id, profile.id, { context, reason: 'payment_refused' });
          await gateway.removeCard(card.paymentMethodRef);
        }
        throw error;
      }
      // An account inactive for billing with nothing left to pay comes back with the card too; a suspension stays.
      if (!accountReactivated) {
        accountReactivated = await ledger.reactivateWhenSettled(organization.id);
      }
    }
    return { ...toPaymentProfile(profile), accountReactivated };
  }

  return {
    /** The card provider's client configuration: what the browser needs to collect a card. */
    async gatewayConfiguration(user: SessionUser): Promise<PaymentGatewayConfiguration> {
      await callerOrganization(user);
      return gateway.clientConfiguration();
    },

    async listProfiles(user: SessionUser): Promise<PaymentProfile[]> {
      const organization = await callerOrganization(user);
      return (await listPaymentProfiles(db, organization.id)).map(toPaymentProfile);
    },

    /**
     * Saves the card a token names, its brand checked first, under the organisation's one customer at
     * the gateway. The first card is the default whatever was asked. On an inactive account the card
     * at once pays what is due, and the account comes back; a card refused for that payment is not
     * kept. Saving, with those payments, is one card attempt.
     */
    async addProfile(
      user: SessionUser,
      { token, setAsDefault = true }: { token: string; setAsDefault?: boolean },
      origin: RequestOrigin,
    ): Promise<AddPaymentProfileResponse> {
      const { organization, caller, context } = await cardCaller(user, origin);
      const cardType = await tokenBrand(token);
      const cardAttemptId = await db.transaction((tx) =>
        claimCardAttempt(tx, caller, 'card', cardAttemptLimits),
      );
      return settleCardAttemptWith(db, cardAttemptId, () =>
        saveProfile(organization, { token, cardType, setAsDefault }, context),
      );
    },

    /** Removes a saved card; when it was the default, the newest other card becomes the default. */
    async removeProfile(user: SessionUser, origin: RequestOrigin, profileId: string): Promise<void> {
      const { organization, context } = await auditedCaller(user, origin);
      const removed = await removeProfileRow(organization.id, profileId, { context });
      if (!removed) throw new AppError('NOT_FOUND');
      try {
        await gateway.removeCard(removed.paymentMethodRef);
      } catch (error) {
        // The portal no longer offers the card; the gateway forgets it when it can.
        if (!(error instanceof GatewayUnavailableError)) throw error;
      }
    },

    /** Makes a saved card the default, recorded unless it was the default already. */
    async setDefaultProfile(
      user: SessionUser,
      origin: RequestOrigin,
      profileId: string,
    ): Promise<PaymentProfile> {
      const { organization, context } = await auditedCaller(user, origin);
      const changed = await db.transaction(async (tx) => {
        await lockPaymentProfiles(tx, organization.id);
        const before = await findPaymentProfile(tx, organization.id, profileId);
        if (!before || !(await setDefaultPaymentProfile(tx, organization.id, profileId))) return false;
        if (!before.isDefault) {
          await record(tx, {
            organizationId: organization.id,
            action: 'billing.card_made_default',
            target: cardTarget(before),
            changes: { default: { before: false, after: true } },
            context,
          });
        }
        return true;
      });
      const profile = changed ? await findPaymentProfile(db, organization.id, profileId) : undefined;
      if (!profile) throw new AppError('NOT_FOUND');
      return toPaymentProfile(profile);
    },

    /**
     * POST /accounts/topup: charges the card the amount less its free credit, plus tax, and raises the
     * balance by the amount (§5), the top-up and its free credit written with the balance change.
     */
    async topUp(user: SessionUser, request: TopUpRequest, origin: RequestOrigin): Promise<TopUpResponse> {
      const { organization, caller, context } = await cardCaller(user, origin);
      if (organization.contractType !== 'payg') throw new AppError('TOP_UP_NOT_AVAILABLE');
      const source = await chargeableSource(organization, request);
      const [tiers, taxRatePercent] = await Promise.all([
        listFreeCreditTiers(db),
        findTaxRatePercent(db, organization.billingCountry),
      ]);
      const summary = topUpSummary({
        amount: request.amount,
        tiers: tiers.map((tier) => ({
          start: centsToUsd(tier.startCents),
          credit: centsToUsd(tier.creditCents),
        })),
        freeCreditEnabled: organization.isFreeCredit,
        taxRatePercent: Number(taxRatePercent),
      });
      const { attempt, cardAttemptId } = await db.transaction(async (tx) => {
        const cardAttemptId = await claimCardAttempt(tx, caller, 'topup', cardAttemptLimits);
        const attempt = await insertPaymentAttempt(tx, organization.id, {
          idempotencyKey: crypto.randomUUID(),
          purpose: 'topup',
          amountCents: summary.totalCents,
          topUpAmountCents: summary.amountCents,
          freeCreditCents: summary.freeCreditCents,
          taxCents: summary.taxCents,
          taxRatePercent,
          ...source,
        });
        return { attempt, cardAttemptId };
      });
      const settled = await settleCardAttemptWith(db, cardAttemptId, () => runAttempt(attempt, context));
      const topUp = await findTransaction(db, organization.id, settled.resultTransactionId ?? 0);
      if (!topUp) throw new Error(`the top-up of attempt ${settled.id} is missing`);
      const balanceCents = (await findPayingOrganization(db, organization.id))?.balanceCents ?? 0;
      return {
        transactionId: padTransactionId(topUp.id),
        freeCreditTransactionId: topUp.creditTransactionId
          ? padTransactionId(topUp.creditTransactionId)
          : null,
        amount: centsToUsd(summary.amountCents),
        freeCredit: centsToUsd(summary.freeCreditCents),
        subTotal: centsToUsd(summary.subtotalCents),
        tax: centsToUsd(summary.taxCents),
        total: centsToUsd(summary.totalCents),
        balance: centsToUsd(balanceCents),
        accountReactivated: settled.accountReactivated,
      };
    },

    /** POST /transactions/{id}/pay: pays by card what an open service or miscellaneous charge still owes. */
    async payTransaction(
      user: SessionUser,
      id: string,
      request: { token?: string; paymentProfileId?: string },
      origin: RequestOrigin,
    ): Promise<PayTransactionResponse> {
      const { organization, caller, context } = await cardCaller(user, origin);
      const transaction = await requireTransaction(db, organization.id, id);
      const source = await chargeableSource(organization, request);
      const settled = await payTransactionWith(organization.id, transaction.id, source, { caller, context });
      return {
        transactionId: padTransactionId(transaction.id),
        status: 'paid',
        paidAmount: centsToUsd(settled.amountCents),
        accountReactivated: settled.accountReactivated,
      };
    },

    /**
     * Settles an attempt a crash or a lost answer left pending by asking the gateway again with its
     * idempotency key: the gateway answers the first outcome and charges nothing more. One still
     * without an answer stays pending for the next round. Stripe, which forgets keys after 24 hours,
     * looks an older attempt's PaymentIntent up instead of sending the key (decision 025).
     */
    async reconcile(attempt: PaymentAttemptRow): Promise<PaymentAttemptRow['status']> {
      let outcome: ChargeOutcome;
      try {
        outcome = await gateway.charge(await chargeRequestOf(db, attempt));
      } catch (error) {
        if (error instanceof GatewayUnavailableError) return 'pending';
        throw error;
      }
      return settleLate(attempt, outcome);
    },

    /**
     * Settles the attempt a PaymentIntent was made for with the outcome Stripe reported by itself (a
     * signed webhook, the PaymentIntent read back from Stripe), through the same settlement as the
     * live request and the reconciliation: whichever comes first settles, the others find it
     * settled. It asks the gateway nothing, so a key Stripe has forgotten (24 hours) cannot make a
     * second charge here. A PaymentIntent the portal did not make, one still processing, and an
     * attempt settled already are left alone; money taken for an attempt settled as refused, and a
     * PaymentIntent of another amount than its attempt's, are logged for an operator.
     */
    async settleReportedPaymentIntent(
      paymentIntentId: string,
      reported: ReportedPaymentIntent,
      log: FastifyBaseLogger,
    ): Promise<void> {
      const attempt = reported.idempotencyKey
        ? await findAttemptByIdempotencyKey(db, reported.idempotencyKey)
        : undefined;
      if (!attempt) return;
      if (attempt.status === 'refused' && reported.outcome?.outcome === 'succeeded') {
        // Money taken for an attempt settled as not charged (decision 025): for an operator to refund.
        log.error(
          { paymentIntentId, attemptId: attempt.id, refusal: attempt.refusal },
          'Stripe charged for a payment attempt the portal settled as refused; refund it in Stripe or record it',
        );
      }
      if (attempt.status !== 'pending' || !reported.outcome) return;
      if (reported.amountCents !== attempt.amountCents || reported.currency !== 'usd') {
        log.error(
          { paymentIntentId, attemptId: attempt.id },
          'a PaymentIntent names a payment attempt of another amount; the attempt is left to the reconciliation',
        );
        return;
      }
      const status = await settleLate(attempt, reported.outcome);
      log.info({ paymentIntentId, attemptId: attempt.id, status }, 'payment attempt settled by Stripe');
    },
  };
}

export type PaymentsService = ReturnType<typeof paymentsService>;
