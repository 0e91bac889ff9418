import type { PaymentGatewayConfiguration, PaymentProvider } from '@portal/contracts';

/** Card brands as a gateway detects them; the portal accepts only those of CARD_TYPES. */
export type GatewayCardBrand =
  'visa' | 'master' | 'american_express' | 'discover' | 'jcb' | 'diners' | 'unionpay' | 'unknown';

/** What a gateway tells about a card: never its number, only brand, last 4 digits and expiry. */
export interface GatewayCard {
  brand: GatewayCardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** A card the gateway keeps for reuse, named by its reference there. */
export interface SavedGatewayCard extends GatewayCard {
  paymentMethodRef: string;
}

/**
 * Why a gateway refused a card or a charge, in the portal's words. `authentication_required`: the
 * card's issuer asks for 3-D Secure, which the portal has no flow for (Stripe only).
 * `attempt_expired`: an attempt asked about after the gateway has forgotten its idempotency key, of
 * which the gateway has no charge: settled as not charged rather than charged a day late (Stripe
 * only, decision 025); never the answer to a live request.
 */
export type CardRefusal =
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'card_not_supported'
  | 'invalid_token'
  | 'authentication_required'
  | 'attempt_expired';

export type ChargeOutcome =
  | { outcome: 'succeeded'; chargeRef: string; card: GatewayCard }
  | { outcome: 'refused'; refusal: CardRefusal; message: string };

export interface ChargeRequest {
  /** Whole cents of USD. */
  amountCents: number;
  /**
   * Names the charge: the gateway charges at most once per key, and asking again with the same key
   * answers the first outcome. The portal writes it with the payment attempt before calling.
   */
  idempotencyKey: string;
  description: string;
  /** A fresh token from the card form, or a saved card (with the customer it belongs to). */
  source: { token: string } | { paymentMethodRef: string; customerRef: string | null };
  /**
   * When the attempt was written, just before the gateway first saw its key; unset is now. A gateway
   * that forgets keys (Stripe, after 24 hours) looks an older attempt's charge up instead of sending
   * the key again, which it would take for a new charge.
   */
  attemptCreatedAt?: Date;
}

/**
 * The gateway could not be reached or did not answer: whether it charged is unknown until the same
 * request (same idempotency key) is asked again.
 */
export class GatewayUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GatewayUnavailableError';
  }
}

/** The gateway refused a card it was asked to keep. */
export class CardRefusedError extends Error {
  constructor(
    readonly refusal: CardRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'CardRefusedError';
  }
}

/**
 * A payment gateway: the sandbox (default) or Stripe, chosen by PAYMENT_PROVIDER. Card data goes
 * from the browser to the gateway's tokeniser; the portal only handles tokens and references.
 */
export interface PaymentGateway {
  readonly provider: PaymentProvider;
  /** What the browser needs to collect a card (§3 card provider client configuration). */
  clientConfiguration(): PaymentGatewayConfiguration;
  /**
   * Keeps the card a token names for reuse, under the organisation's customer at the gateway (made
   * on first use when `customerRef` is null). Throws CardRefusedError for an invalid or used token.
   */
  saveCard(request: {
    token: string;
    customerRef: string | null;
    organizationId: string;
  }): Promise<{ card: SavedGatewayCard; customerRef: string }>;
  /**
   * Makes a customer for the organisation at the gateway. The portal keeps the first one it stores
   * for good: one customer per organisation, however many first cards are saved at once.
   */
  createCustomer(organizationId: string): Promise<string>;
  /**
   * The card a one-time token stands for, read without using the token or checking the card: what
   * the portal decides the brand by before it saves or charges the card. Throws CardRefusedError
   * (`invalid_token`) for a token the gateway does not know.
   */
  tokenCard(token: string): Promise<GatewayCard>;
  /** Forgets a saved card; one the gateway no longer knows counts as forgotten. */
  removeCard(paymentMethodRef: string): Promise<void>;
  /** Charges at most once per idempotency key; throws GatewayUnavailableError when the outcome is unknown. */
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
}
