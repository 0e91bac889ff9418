import type { PaymentGatewayConfiguration } from '@portal/contracts';
import Stripe from 'stripe';
import {
  CardRefusedError,
  GatewayUnavailableError,
  type CardRefusal,
  type ChargeOutcome,
  type ChargeRequest,
  type GatewayCard,
  type GatewayCardBrand,
  type PaymentGateway,
  type SavedGatewayCard,
} from './payment-gateway.ts';

export interface StripeGatewayOptions {
  secretKey: string;
  publishableKey: string;
  /** Verifies the signature of the events Stripe posts to the portal's webhook. */
  webhookSecret: string;
  /** A stand-in for Stripe's API (`http://127.0.0.1:12111`); unset means Stripe's own. */
  apiHost?: string;
  /** The SDK's own retries of a call that got no answer, with the same idempotency key. */
  maxNetworkRetries?: number;
  /** How long one call may take before its outcome counts as unknown. */
  timeoutMs?: number;
}

/** Well inside the two minutes after which the schedule reconciles an attempt still pending. */
export const STRIPE_TIMEOUT_MS = 20_000;
const STRIPE_NETWORK_RETRIES = 2;

/** The metadata key of a PaymentIntent that names the portal's payment attempt by its idempotency key. */
export const ATTEMPT_KEY_METADATA = 'portal_idempotency_key';

const HOUR_MS = 60 * 60_000;
/**
 * Stripe keeps an idempotency key for 24 hours from its first use, which is after the attempt was
 * written: an attempt younger than this is asked about with its key (exact and immediate). An hour
 * is kept for the clocks of the database, the portal and Stripe (decision 025).
 */
export const IDEMPOTENCY_KEY_TRUSTED_MS = 23 * HOUR_MS;
/**
 * An older attempt is looked up with Stripe's search, which lags (under a minute, as a rule). As the
 * portal sends no key for an attempt past IDEMPOTENCY_KEY_TRUSTED_MS, a PaymentIntent made for it is
 * at least an hour old at this age, and the search not finding one is taken for no charge.
 */
export const SEARCH_CONCLUSIVE_AFTER_MS = 24 * HOUR_MS;

/** A PaymentIntent event that can settle a payment attempt; the webhook acts on no other. */
export const SETTLING_EVENTS = ['payment_intent.succeeded', 'payment_intent.payment_failed'] as const;

/** The message of a refusal for a card whose issuer asks for 3-D Secure. */
const AUTHENTICATION_REQUIRED_MESSAGE =
  'The card asks for 3-D Secure authentication, which the portal has no flow for yet.';

/** The message of the refusal settling an old attempt Stripe has no PaymentIntent for. */
const ATTEMPT_EXPIRED_MESSAGE =
  'Stripe has no PaymentIntent for this attempt, which is older than Stripe keeps idempotency keys: it was not charged, and is not charged now.';

/** Stripe's card brands (PaymentMethod.card.brand) and the gateway interface's. */
const BRANDS: Record<string, GatewayCardBrand> = {
  visa: 'visa',
  mastercard: 'master',
  amex: 'american_express',
  discover: 'discover',
  jcb: 'jcb',
  diners: 'diners',
  unionpay: 'unionpay',
};

/** Stripe's codes (an error's `code` or `decline_code`) and the portal's refusals; any other is a decline. */
const REFUSALS: Record<string, CardRefusal> = {
  insufficient_funds: 'insufficient_funds',
  expired_card: 'expired_card',
  card_not_supported: 'card_not_supported',
  authentication_required: 'authentication_required',
};

/** What a PaymentIntent read back from Stripe says about the attempt it was made for. */
export interface ReportedPaymentIntent {
  /** The attempt's idempotency key, from the PaymentIntent's metadata; undefined for one the portal did not make. */
  idempotencyKey: string | undefined;
  amountCents: number;
  currency: string;
  /** Undefined while the PaymentIntent has no final outcome (processing). */
  outcome: ChargeOutcome | undefined;
}

/**
 * The Stripe gateway, with the official SDK. Cards are taken in the browser by Stripe Elements,
 * which hands the portal a PaymentMethod id (`pm_…`) as the card token; saving one confirms a
 * SetupIntent for off-session use under the organisation's Customer; charging one confirms a
 * PaymentIntent with the attempt's idempotency key. As with the sandbox, no answer (a network
 * failure, a time-out, Stripe's 5xx or rate limit) is GatewayUnavailableError and a refusal of the
 * card is an answer; other refusals (a wrong key, a reused idempotency key) throw a plain Error.
 */
export class StripeGateway implements PaymentGateway {
  readonly provider = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(private readonly options: StripeGatewayOptions) {
    this.stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: options.maxNetworkRetries ?? STRIPE_NETWORK_RETRIES,
      timeout: options.timeoutMs ?? STRIPE_TIMEOUT_MS,
      ...(options.apiHost ? hostOptions(options.apiHost) : {}),
    });
  }

  clientConfiguration(): PaymentGatewayConfiguration {
    // Stripe has no site subdomain: the field says the keys' mode, so a form can mark test mode.
    return {
      provider: 'stripe',
      publicKey: this.options.publishableKey,
      siteSubdomain: this.options.publishableKey.startsWith('pk_live_') ? 'live' : 'test',
      tokenizeUrl: null,
    };
  }

  /**
   * Saves the card of a PaymentMethod made in the browser: a SetupIntent for off-session use,
   * confirmed at once, attaches it to the organisation's Customer (made on first use, and again if
   * Stripe no longer knows it) after the issuer has checked the card, as Stripe recommends for cards
   * charged later without the customer present.
   */
  async saveCard(request: { token: string; customerRef: string | null; organizationId: string }) {
    let customerRef = request.customerRef ?? (await this.createCustomer(request.organizationId));
    let setupIntent: Stripe.SetupIntent;
    try {
      setupIntent = await this.confirmSetup(customerRef, request);
    } catch (error) {
      if (!(request.customerRef !== null && isMissing(error, 'customer'))) throw savingError(error);
      customerRef = await this.createCustomer(request.organizationId);
      try {
        setupIntent = await this.confirmSetup(customerRef, request);
      } catch (retryError) {
        throw savingError(retryError);
      }
    }
    if (setupIntent.status === 'requires_action' || setupIntent.status === 'requires_confirmation') {
      await this.stripe.setupIntents.cancel(setupIntent.id).catch(() => undefined);
      throw new CardRefusedError('authentication_required', AUTHENTICATION_REQUIRED_MESSAGE);
    }
    if (setupIntent.status !== 'succeeded') {
      const refusal = refusalOf(setupIntent.last_setup_error);
      throw new CardRefusedError(refusal.refusal, refusal.message);
    }
    const paymentMethod = await this.paymentMethodOf(setupIntent.payment_method);
    const card: SavedGatewayCard = { ...cardOf(paymentMethod), paymentMethodRef: paymentMethod.id };
    return { card, customerRef };
  }

  /** A PaymentMethod's card as Stripe has it, read without confirming anything with it. */
  async tokenCard(token: string): Promise<GatewayCard> {
    try {
      return cardOf(await this.stripe.paymentMethods.retrieve(token));
    } catch (error) {
      // No such PaymentMethod, or not the id of one: no card.
      if (error instanceof Stripe.errors.StripeInvalidRequestError)
        throw new CardRefusedError('invalid_token', error.message);
      throw unavailableOr(error, 'reading a card');
    }
  }

  /** Detaches a saved card from its Customer; one Stripe does not know, or not attached, is already forgotten. */
  async removeCard(paymentMethodRef: string): Promise<void> {
    try {
      await this.stripe.paymentMethods.detach(paymentMethodRef);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return;
      throw unavailableOr(error, 'removing a card');
    }
  }

  /**
   * Confirms a PaymentIntent for the amount with the attempt's idempotency key (also in its
   * metadata, for the webhook and the search). The parameters are made from the request alone, so
   * asking again with the same key sends the same ones and Stripe answers its first outcome. A saved
   * card is charged off-session; a card the user just entered on-session. An attempt older than
   * Stripe keeps keys is never sent again: its PaymentIntent is looked up instead (decision 025).
   */
  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    const age = request.attemptCreatedAt ? Date.now() - request.attemptCreatedAt.getTime() : 0;
    if (age >= IDEMPOTENCY_KEY_TRUSTED_MS) return this.lookUpCharge(request, age);
    const { source } = request;
    if ('paymentMethodRef' in source && source.customerRef === null)
      throw new Error('A saved card is charged with its customer, and this one names none.');
    const params: Stripe.PaymentIntentCreateParams = {
      amount: request.amountCents,
      currency: 'usd',
      description: request.description,
      allowed_payment_method_types: ['card'],
      confirm: true,
      metadata: { [ATTEMPT_KEY_METADATA]: request.idempotencyKey },
      expand: ['payment_method'],
      ...('token' in source
        ? { payment_method: source.token }
        : { payment_method: source.paymentMethodRef, customer: source.customerRef ?? '', off_session: true }),
    };
    let paymentIntent: Stripe.PaymentIntent;
    try {
      paymentIntent = await this.stripe.paymentIntents.create(params, {
        idempotencyKey: request.idempotencyKey,
      });
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) return { outcome: 'refused', ...refusalOf(error) };
      if (isMissing(error, 'payment_method') || isMissing(error, 'customer'))
        return { outcome: 'refused', refusal: 'invalid_token', message: (error as Error).message };
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'amount_too_small')
        return { outcome: 'refused', refusal: 'card_declined', message: error.message };
      throw unavailableOr(error, 'charging');
    }
    return this.chargeOutcomeOf(paymentIntent);
  }

  /**
   * Checks a webhook's `Stripe-Signature` against its body, signed with the webhook secret (and at
   * most 5 minutes old); answers the event, or throws Stripe's StripeSignatureVerificationError.
   */
  async verifyWebhook(payload: string, signature: string | undefined): Promise<Stripe.Event> {
    return this.stripe.webhooks.constructEventAsync(payload, signature ?? '', this.options.webhookSecret);
  }

  /**
   * A PaymentIntent as Stripe has it now (not as an event told it), with the attempt it was made
   * for; throws GatewayUnavailableError when Stripe does not answer.
   */
  async readPaymentIntent(paymentIntentId: string): Promise<ReportedPaymentIntent> {
    let paymentIntent: Stripe.PaymentIntent;
    try {
      paymentIntent = await this.stripe.paymentIntents.retrieve(paymentIntentId, {
        expand: ['payment_method'],
      });
    } catch (error) {
      throw unavailableOr(error, 'reading a PaymentIntent');
    }
    return {
      idempotencyKey: paymentIntent.metadata[ATTEMPT_KEY_METADATA],
      amountCents: paymentIntent.amount,
      currency: paymentIntent.currency,
      outcome: await this.outcomeOf(paymentIntent),
    };
  }

  /**
   * The outcome of an attempt past the key's 24 hours, from the PaymentIntent its metadata names,
   * found with Stripe's search; nothing is created. A processing one, or none found while the search
   * may still be catching up, is an unknown outcome (the attempt stays pending); none found later is
   * `attempt_expired`, settled as not charged.
   */
  private async lookUpCharge(request: ChargeRequest, age: number): Promise<ChargeOutcome> {
    let found: Stripe.PaymentIntent[];
    try {
      const result = await this.stripe.paymentIntents.search({
        query: `metadata['${ATTEMPT_KEY_METADATA}']:'${request.idempotencyKey.replace(/['\\]/g, '\\$&')}'`,
        expand: ['data.payment_method'],
        limit: 10,
      });
      found = result.data.filter(
        (paymentIntent) => paymentIntent.metadata[ATTEMPT_KEY_METADATA] === request.idempotencyKey,
      );
    } catch (error) {
      throw unavailableOr(error, 'searching PaymentIntents');
    }
    if (found.length === 0) {
      if (age < SEARCH_CONCLUSIVE_AFTER_MS)
        throw new GatewayUnavailableError(
          `Stripe's search has no PaymentIntent for ${request.idempotencyKey} yet; asked again later`,
        );
      return { outcome: 'refused', refusal: 'attempt_expired', message: ATTEMPT_EXPIRED_MESSAGE };
    }
    const other = found.find(
      (paymentIntent) => paymentIntent.amount !== request.amountCents || paymentIntent.currency !== 'usd',
    );
    if (other)
      throw new Error(
        `Stripe's PaymentIntent ${other.id} names the attempt ${request.idempotencyKey} with another amount`,
      );
    // One PaymentIntent per key, as a rule; should there be more, a success or one under way decides.
    const paymentIntent =
      found.find((candidate) => candidate.status === 'succeeded') ??
      found.find((candidate) => candidate.status === 'processing') ??
      found[0]!;
    return this.chargeOutcomeOf(paymentIntent);
  }

  /**
   * What a charge's PaymentIntent answers: one waiting for 3-D Secure is cancelled (no flow for it
   * yet) rather than left waiting, and a processing one is an unknown outcome.
   */
  private async chargeOutcomeOf(paymentIntent: Stripe.PaymentIntent): Promise<ChargeOutcome> {
    if (paymentIntent.status === 'requires_action') {
      await this.stripe.paymentIntents.cancel(paymentIntent.id).catch(() => undefined);
    }
    const outcome = await this.outcomeOf(paymentIntent);
    if (!outcome)
      throw new GatewayUnavailableError(`Stripe's PaymentIntent ${paymentIntent.id} is still processing`);
    return outcome;
  }

  /** The outcome a PaymentIntent stands for; undefined while it is processing. */
  private async outcomeOf(paymentIntent: Stripe.PaymentIntent): Promise<ChargeOutcome | undefined> {
    switch (paymentIntent.status) {
      case 'succeeded': {
        const paymentMethod = await this.paymentMethodOf(paymentIntent.payment_method);
        return { outcome: 'succeeded', chargeRef: paymentIntent.id, card: cardOf(paymentMethod) };
      }
      case 'processing':
        return undefined;
      case 'requires_action':
        return {
          outcome: 'refused',
          refusal: 'authentication_required',
          message: AUTHENTICATION_REQUIRED_MESSAGE,
        };
      case 'requires_payment_method':
      case 'canceled':
        return { outcome: 'refused', ...refusalOf(paymentIntent.last_payment_error) };
      default:
        throw new Error(
          `Stripe's PaymentIntent ${paymentIntent.id} is ${paymentIntent.status}, which the portal never asks for`,
        );
    }
  }

  private async confirmSetup(customer: string, request: { token: string; organizationId: string }) {
    return this.stripe.setupIntents.create({
      customer,
      payment_method: request.token,
      allowed_payment_method_types: ['card'],
      usage: 'off_session',
      confirm: true,
      metadata: { organizationId: request.organizationId },
      expand: ['payment_method'],
    });
  }

  async createCustomer(organizationId: string): Promise<string> {
    try {
      return (await this.stripe.customers.create({ metadata: { organizationId } })).id;
    } catch (error) {
      throw unavailableOr(error, 'creating a customer');
    }
  }

  /** The PaymentMethod an intent names, read when the answer did not expand it. */
  private async paymentMethodOf(
    paymentMethod: string | Stripe.PaymentMethod | null,
  ): Promise<Stripe.PaymentMethod> {
    if (paymentMethod === null)
      throw new GatewayUnavailableError('Stripe answered an intent without its card');
    if (typeof paymentMethod !== 'string') return paymentMethod;
    try {
      return await this.stripe.paymentMethods.retrieve(paymentMethod);
    } catch (error) {
      throw unavailableOr(error, 'reading a card');
    }
  }
}

/** The SDK's `host`, `port` and `protocol` for an API base URL. */
function hostOptions(apiHost: string): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  const url = new URL(apiHost);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
  };
}

/** A card as a PaymentMethod describes it; a brand Stripe adds later is `unknown`, which the portal refuses. */
function cardOf(paymentMethod: Stripe.PaymentMethod): GatewayCard {
  const { card } = paymentMethod;
  if (!card) throw new GatewayUnavailableError(`Stripe's PaymentMethod ${paymentMethod.id} is not a card`);
  return {
    brand: BRANDS[card.brand] ?? 'unknown',
    last4: card.last4,
    expMonth: card.exp_month,
    expYear: card.exp_year,
  };
}

/** A refusal from a card error, or an intent's last error; Stripe's message is kept for the logs. */
function refusalOf(
  error: { code?: string | null; decline_code?: string | null; message?: string | null } | null | undefined,
): { refusal: CardRefusal; message: string } {
  const refusal =
    REFUSALS[error?.decline_code ?? ''] ?? REFUSALS[error?.code ?? ''] ?? ('card_declined' as const);
  return { refusal, message: error?.message ?? 'The card was declined.' };
}

/** Stripe does not know the object a parameter names (a PaymentMethod, a Customer), or cannot use it. */
function isMissing(error: unknown, param: 'payment_method' | 'customer'): boolean {
  return error instanceof Stripe.errors.StripeInvalidRequestError && error.param === param;
}

/** Why saving a card failed: a refusal of the card, an unknown outcome, or the portal's own mistake. */
function savingError(error: unknown): Error {
  if (error instanceof Stripe.errors.StripeCardError) {
    const refusal = refusalOf(error);
    return new CardRefusedError(refusal.refusal, refusal.message);
  }
  if (isMissing(error, 'payment_method'))
    return new CardRefusedError('invalid_token', (error as Error).message);
  return unavailableOr(error, 'saving a card');
}

/**
 * No answer, Stripe's own failure (5xx, including a conflicting request under way with the same
 * idempotency key) or its rate limit leave the outcome unknown; anything else is a plain Error.
 */
function unavailableOr(error: unknown, doing: string): Error {
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  )
    return new GatewayUnavailableError(`Stripe did not answer ${doing}: ${error.message}`, { cause: error });
  if (error instanceof Stripe.errors.StripeError)
    return new Error(
      `Stripe refused ${doing}: ${error.statusCode ?? ''} ${error.code ?? error.type}: ${error.message}`,
      {
        cause: error,
      },
    );
  return error instanceof Error ? error : new Error(String(error));
}
