import type { PaymentGatewayConfiguration } from '@portal/contracts';
import { z } from 'zod';
import {
  CardRefusedError,
  GatewayUnavailableError,
  type CardRefusal,
  type ChargeOutcome,
  type ChargeRequest,
  type GatewayCard,
  type PaymentGateway,
  type SavedGatewayCard,
} from './payment-gateway.ts';

export interface SandboxGatewayOptions {
  /** The sandbox's API base without a trailing slash: the portal's own /card-sandbox, or CARD_SANDBOX_URL. */
  baseUrl: string;
  /** Where the browser's card form posts card data. */
  tokenizeUrl: string;
  publishableKey: string;
  secretKey: string;
  /** The portal's in-process fetch when it hosts the sandbox (portalFetch); the global fetch otherwise. */
  fetch?: typeof fetch;
  /** How long one call may take before its outcome counts as unknown. */
  timeoutMs?: number;
}

export const SANDBOX_TIMEOUT_MS = 10_000;

const CardSchema = z.object({
  brand: z.enum(['visa', 'master', 'american_express', 'discover', 'jcb', 'diners', 'unionpay', 'unknown']),
  last4: z.string().regex(/^\d{4}$/),
  expMonth: z.number().int(),
  expYear: z.number().int(),
});
const CustomerSchema = z.object({ id: z.string().min(1) });
const TokenSchema = z.object({ id: z.string().min(1), card: CardSchema });
const PaymentMethodSchema = z.object({ id: z.string().min(1), card: CardSchema });
const ChargeSchema = z.object({ id: z.string().min(1), status: z.literal('succeeded'), card: CardSchema });
const ErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), param: z.string().optional() }),
});

/** The sandbox's 402 codes and the portal's refusals; an unknown decline counts as declined. */
const DECLINES: Record<string, CardRefusal> = {
  card_declined: 'card_declined',
  insufficient_funds: 'insufficient_funds',
  expired_card: 'expired_card',
};

interface Answer {
  status: number;
  body: unknown;
}

/**
 * The sandbox payment gateway over HTTP with its secret key, as any merchant server reaches a
 * card gateway. A call that gets no answer (network failure, time-out) or a 5xx has an unknown
 * outcome: GatewayUnavailableError, and the portal asks again with the same idempotency key. A
 * refusal of the card is an answer; any other 4xx is a mistake of the portal's (a wrong key, a key
 * reused for another charge) and throws a plain Error.
 */
export class SandboxGateway implements PaymentGateway {
  readonly provider = 'sandbox' as const;
  /** The merchant key, for a look at the sandbox's own records (its charges by idempotency key). */
  readonly secretKey: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: SandboxGatewayOptions) {
    this.secretKey = options.secretKey;
    this.fetch = options.fetch ?? fetch;
  }

  clientConfiguration(): PaymentGatewayConfiguration {
    return {
      provider: 'sandbox',
      publicKey: this.options.publishableKey,
      siteSubdomain: 'sandbox',
      tokenizeUrl: this.options.tokenizeUrl,
    };
  }

  async saveCard(request: { token: string; customerRef: string | null; organizationId: string }) {
    let customerRef = request.customerRef ?? (await this.createCustomer(request.organizationId));
    let answer = await this.call('POST', '/v1/payment-methods', {
      token: request.token,
      customer: customerRef,
    });
    // A customer the gateway no longer knows (its records were reset) is made again; the token
    // is checked after the customer, so it is still unused.
    const refused = errorOf(answer);
    if (
      request.customerRef !== null &&
      refused?.code === 'resource_missing' &&
      refused.param === 'customer'
    ) {
      customerRef = await this.createCustomer(request.organizationId);
      answer = await this.call('POST', '/v1/payment-methods', {
        token: request.token,
        customer: customerRef,
      });
    }
    if (answer.status === 200) {
      const saved = expectBody(PaymentMethodSchema, answer, 'payment method');
      const card: SavedGatewayCard = { ...toCard(saved.card), paymentMethodRef: saved.id };
      return { card, customerRef };
    }
    const refusal = refusalOf(answer);
    if (refusal) throw new CardRefusedError(refusal.refusal, refusal.message);
    throw unexpected(answer, 'saving a card');
  }

  async tokenCard(token: string): Promise<GatewayCard> {
    const answer = await this.call('GET', `/v1/tokens/${encodeURIComponent(token)}`);
    if (answer.status === 200) return toCard(expectBody(TokenSchema, answer, 'token').card);
    // Not found or not a token's id at all (one such as `..` or `.` leaves the route): no card.
    if (answer.status === 404 || answer.status === 400)
      throw new CardRefusedError('invalid_token', 'This card token is unknown.');
    throw unexpected(answer, 'reading a token');
  }

  async removeCard(paymentMethodRef: string): Promise<void> {
    const answer = await this.call('DELETE', `/v1/payment-methods/${encodeURIComponent(paymentMethodRef)}`);
    if (answer.status === 200 || answer.status === 404) return;
    throw unexpected(answer, 'removing a card');
  }

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    const { source } = request;
    if ('paymentMethodRef' in source && source.customerRef === null)
      throw new Error('A saved card is charged with its customer, and this one names none.');
    const answer = await this.call(
      'POST',
      '/v1/charges',
      {
        amountCents: request.amountCents,
        currency: 'usd',
        description: request.description,
        source:
          'token' in source
            ? { token: source.token }
            : { paymentMethod: source.paymentMethodRef, customer: source.customerRef },
      },
      { 'idempotency-key': request.idempotencyKey },
    );
    if (answer.status === 200) {
      const charge = expectBody(ChargeSchema, answer, 'charge');
      return { outcome: 'succeeded', chargeRef: charge.id, card: toCard(charge.card) };
    }
    const refusal = refusalOf(answer);
    if (refusal) return { outcome: 'refused', ...refusal };
    throw unexpected(answer, 'charging');
  }

  async createCustomer(organizationId: string): Promise<string> {
    const answer = await this.call('POST', '/v1/customers', { metadata: { organizationId } });
    if (answer.status !== 200) throw unexpected(answer, 'creating a customer');
    return expectBody(CustomerSchema, answer, 'customer').id;
  }

  /** One call with the secret key: its status and JSON body, or GatewayUnavailableError when there is none. */
  private async call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(`${this.options.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.options.secretKey}`,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? SANDBOX_TIMEOUT_MS),
      });
      text = await response.text();
    } catch (error) {
      throw new GatewayUnavailableError(`The card sandbox did not answer ${method} ${path}`, {
        cause: error,
      });
    }
    if (response.status >= 500)
      throw new GatewayUnavailableError(`The card sandbox answered ${response.status} to ${method} ${path}`);
    try {
      return { status: response.status, body: JSON.parse(text) };
    } catch (error) {
      throw new GatewayUnavailableError(`The card sandbox answered ${method} ${path} with no JSON`, {
        cause: error,
      });
    }
  }
}

function toCard(card: z.infer<typeof CardSchema>): GatewayCard {
  return { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear };
}

function errorOf(answer: Answer) {
  const parsed = ErrorSchema.safeParse(answer.body);
  return parsed.success ? parsed.data.error : undefined;
}

/** A refusal of the card: a 402 decline, or a token that is unknown, used, expired (or a saved card gone). */
function refusalOf(answer: Answer): { refusal: CardRefusal; message: string } | undefined {
  const error = errorOf(answer);
  if (!error) return undefined;
  if (answer.status === 402)
    return { refusal: DECLINES[error.code] ?? 'card_declined', message: error.message };
  const tokenGone = error.code === 'invalid_token';
  const savedCardGone = error.code === 'resource_missing' && error.param === 'source.paymentMethod';
  if (answer.status === 400 && (tokenGone || savedCardGone))
    return { refusal: 'invalid_token', message: error.message };
  return undefined;
}

/**
 * A success answer's body: one the portal cannot read leaves the outcome unknown (the same
 * request is asked again later), never taken for a refusal.
 */
function expectBody<T>(schema: z.ZodType<T>, answer: Answer, what: string): T {
  const parsed = schema.safeParse(answer.body);
  if (!parsed.success)
    throw new GatewayUnavailableError(`The card sandbox answered a ${what} the portal cannot read`);
  return parsed.data;
}

function unexpected(answer: Answer, doing: string): Error {
  const error = errorOf(answer);
  return new Error(
    `The card sandbox refused ${doing}: ${answer.status}${error ? ` ${error.code}: ${error.message}` : ''}`,
  );
}
