import crypto from 'node:crypto';
import {
  REFUSAL_MESSAGES,
  chargeRefusal,
  checkCard,
  verificationRefusal,
  type CardDetails,
  type CardInput,
  type CardSummary,
  type FieldError,
} from './cards.ts';
import { newId, type CardSandboxStore, type ChargeSource, type StoredCharge } from './store.ts';

/** A refusal answered as `{error: {code, message, …}}` with its HTTP status. */
export class SandboxError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
  }

  toBody() {
    return { error: { code: this.code, message: this.message, ...this.extra } };
  }
}

/** The browser's card data failed the checks: 400 with every field's error. */
export class CardFieldsError extends Error {
  constructor(readonly errors: FieldError[]) {
    super('card fields invalid');
  }
}

const INVALID_TOKEN_MESSAGE = 'This card token is unknown, already used or expired.';

const summary = (card: CardDetails): CardSummary => ({
  brand: card.brand,
  last4: card.last4,
  expMonth: card.expMonth,
  expYear: card.expYear,
});

export interface ChargeRequest {
  idempotencyKey: string;
  amountCents: number;
  currency: 'usd';
  description: string;
  source: ChargeSource;
}

/** An answer as it was sent, so a repeated idempotency key gets the same bytes. */
export interface StoredAnswer {
  status: number;
  body: string;
}

/** What identifies a charge request for its idempotency key: the amount, currency and card source. */
function requestHash(request: ChargeRequest): string {
  const source =
    'token' in request.source
      ? ['token', request.source.token]
      : ['saved', request.source.paymentMethod, request.source.customer];
  return crypto
    .createHash('sha256')
    .update(JSON.stringify([request.amountCents, request.currency, source]))
    .digest('hex');
}

/** A charge as the reconciliation list shows it. */
export function chargeRecord(charge: StoredCharge) {
  return {
    id: charge.id,
    idempotencyKey: charge.idempotencyKey,
    status: charge.status,
    amountCents: charge.amountCents,
    currency: charge.currency,
    description: charge.description,
    source: charge.source,
    card: charge.card,
    failureCode: charge.failureCode,
    failureMessage: charge.failureCode ? REFUSAL_MESSAGES[charge.failureCode] : null,
    created: charge.createdAt.toISOString(),
  };
}

/** The gateway's operations on its store, each answering what the HTTP layer sends. */
export class CardSandbox {
  constructor(private readonly store: CardSandboxStore) {}

  /** Tokenises the browser's card: the card's summary and a single-use token, or the fields' errors. */
  async createToken(input: CardInput) {
    const now = new Date();
    const checked = checkCard(input, now);
    if ('errors' in checked) throw new CardFieldsError(checked.errors);
    const { id } = await this.store.createToken(checked.card, now);
    return { id, card: summary(checked.card) };
  }

  /**
   * A token's card for the merchant server, read without using the token, as a card gateway lets a
   * merchant look at a token (its brand) before saving or charging it. Whether the token can still be
   * used is for the save or the charge to find.
   */
  async retrieveToken(id: string) {
    const card = await this.store.tokenCard(id);
    if (!card) throw new SandboxError(404, 'resource_missing', `No such token: '${id}'`, { param: 'id' });
    return { id, card: summary(card) };
  }

  async createCustomer(metadata: Record<string, string>) {
    return { id: await this.store.createCustomer(metadata, new Date()) };
  }

  /**
   * Saves the token's card under a customer after a $0 verification. The token is used up even
   * when the card is refused, as at a card network's gateway.
   */
  async createPaymentMethod(token: string, customer: string) {
    const now = new Date();
    const outcome = await this.store.transaction(async (tx) => {
      if (!(await tx.customerExists(customer)))
        throw new SandboxError(400, 'resource_missing', `No such customer: '${customer}'`, {
          param: 'customer',
        });
      const card = await tx.consumeToken(token, now);
      if (!card) throw new SandboxError(400, 'invalid_token', INVALID_TOKEN_MESSAGE, { param: 'token' });
      const refusal = verificationRefusal(card, now);
      if (refusal) return { refused: refusal } as const;
      return { saved: { id: await tx.createPaymentMethod(customer, card, now), card } } as const;
    });
    if (outcome.refused) throw new SandboxError(402, outcome.refused, REFUSAL_MESSAGES[outcome.refused]);
    return { id: outcome.saved.id, customer, card: summary(outcome.saved.card) };
  }

  async removePaymentMethod(id: string) {
    if (!(await this.store.detachPaymentMethod(id, new Date())))
      throw new SandboxError(404, 'resource_missing', `No such payment method: '${id}'`);
    return { id, deleted: true };
  }

  /**
   * Charges at most once per idempotency key. The key's row is inserted before anything else in
   * one transaction with the card's use and the outcome, so concurrent requests with one key wait
   * for the first and, like any later one (after a restart too), get the answer it stored. The
   * same key with another amount or card is refused. A request that fails before an outcome (an
   * unknown token) stores nothing, so the key stays free.
   */
  async charge(request: ChargeRequest): Promise<StoredAnswer> {
    const now = new Date();
    const hash = requestHash(request);
    return this.store.transaction(async (tx) => {
      const id = newId('ch');
      const claimed = await tx.claimCharge({ id, requestHash: hash, ...request }, now);
      if (!claimed) {
        const [existing] = await tx.charges({ idempotencyKey: request.idempotencyKey, limit: 1 });
        if (!existing)
          throw new Error(`the charge of idempotency key ${request.idempotencyKey} is not settled`);
        if (existing.requestHash !== hash) {
          throw new SandboxError(
            409,
            'idempotency_key_reused',
            'This idempotency key was used for a charge with another amount, currency or card.',
          );
        }
        return existing.response;
      }
      const { source } = request;
      const card =
        'token' in source
          ? await tx.consumeToken(source.token, now)
          : await tx.paymentMethod(source.paymentMethod, source.customer);
      if (!card) {
        throw 'token' in source
          ? new SandboxError(400, 'invalid_token', INVALID_TOKEN_MESSAGE, { param: 'source.token' })
          : new SandboxError(
              400,
              'resource_missing',
              `No such payment method of this customer: '${source.paymentMethod}'`,
              {
                param: 'source.paymentMethod',
              },
            );
      }
      const refusal = chargeRefusal(card, now);
      const response = refusal
        ? {
            status: 402,
            body: JSON.stringify(
              new SandboxError(402, refusal, REFUSAL_MESSAGES[refusal], { charge: id }).toBody(),
            ),
          }
        : {
            status: 200,
            body: JSON.stringify({
              id,
              status: 'succeeded',
              amountCents: request.amountCents,
              currency: request.currency,
              description: request.description,
              card: summary(card),
              created: now.toISOString(),
            }),
          };
      await tx.settleCharge(id, { failureCode: refusal, card, response });
      return response;
    });
  }

  async charges(filter: { idempotencyKey?: string; limit: number }) {
    return { data: (await this.store.charges(filter)).map(chargeRecord) };
  }
}
