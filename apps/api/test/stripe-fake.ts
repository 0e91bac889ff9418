import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A small stand-in for Stripe's API, for the tests of the Stripe gateway: a node:http server that
 * answers the calls the gateway makes (Customers, SetupIntents, PaymentIntents, PaymentMethods) in
 * Stripe's JSON shapes and form-encoded requests, checks the secret key, honours Idempotency-Key
 * (the same key and parameters replay the stored answer; other parameters are an idempotency_error)
 * and refuses in Stripe's error shape, so the official SDK raises StripeCardError and the rest.
 *
 * It searches PaymentIntents by a metadata value (`GET /v1/payment_intents/search`) and can forget
 * the idempotency keys it has seen, as Stripe does after 24 hours.
 *
 * Test PaymentMethods behave as Stripe's do: each use of `pm_card_visa` and the others makes a new
 * PaymentMethod; the declining ones are refused when saved (a SetupIntent) and when charged, except
 * `pm_card_chargeCustomerFail`, which is saved and then refused; `pm_card_authenticationRequired`
 * asks for 3-D Secure (requires_action on-session, authentication_required off-session).
 */

type Behaviour =
  | 'succeeds'
  | 'declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'charge_fails'
  | 'authentication_required';

interface TestCard {
  brand: string;
  last4: string;
  behaviour: Behaviour;
}

export const TEST_PAYMENT_METHODS: Record<string, TestCard> = {
  pm_card_visa: { brand: 'visa', last4: '4242', behaviour: 'succeeds' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', behaviour: 'succeeds' },
  pm_card_amex: { brand: 'amex', last4: '0005', behaviour: 'succeeds' },
  pm_card_discover: { brand: 'discover', last4: '1117', behaviour: 'succeeds' },
  pm_card_jcb: { brand: 'jcb', last4: '0000', behaviour: 'succeeds' },
  pm_card_unionpay: { brand: 'unionpay', last4: '0005', behaviour: 'succeeds' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', behaviour: 'declined' },
  pm_card_chargeDeclinedInsufficientFunds: { brand: 'visa', last4: '9995', behaviour: 'insufficient_funds' },
  pm_card_chargeDeclinedExpiredCard: { brand: 'visa', last4: '0069', behaviour: 'expired_card' },
  pm_card_chargeCustomerFail: { brand: 'visa', last4: '0341', behaviour: 'charge_fails' },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184', behaviour: 'authentication_required' },
};

interface PaymentMethodRecord {
  id: string;
  card: TestCard & { expMonth: number; expYear: number };
  customer: string | null;
  /** Used once without a customer, or detached: Stripe refuses it from then on. */
  spent: boolean;
  created: number;
}

export interface PaymentIntentRecord {
  id: string;
  amount: number;
  currency: string;
  customer: string | null;
  description: string | null;
  metadata: Record<string, string>;
  paymentMethod: string;
  offSession: boolean;
  status: 'succeeded' | 'requires_payment_method' | 'requires_action' | 'canceled' | 'processing';
  lastPaymentError: Record<string, unknown> | null;
  created: number;
}

interface SetupIntentRecord {
  id: string;
  customer: string;
  paymentMethod: string;
  metadata: Record<string, string>;
  status: 'succeeded' | 'requires_payment_method' | 'requires_action' | 'canceled';
  lastSetupError: Record<string, unknown> | null;
  created: number;
}

interface Answer {
  status: number;
  body: unknown;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: Record<string, unknown>,
  ) {
    super(String(error.message));
  }
}

const id = (prefix: string) =>
  `${prefix}_${crypto.randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const now = () => Math.floor(Date.now() / 1000);

const missing = (param: string, what: string, value: string) =>
  new StripeApiError(param === 'id' ? 404 : 400, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    param,
    message: `No such ${what}: '${value}'`,
  });

const DECLINES: Record<Exclude<Behaviour, 'succeeds' | 'authentication_required'>, Record<string, string>> = {
  declined: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  charge_fails: {
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
  },
  insufficient_funds: {
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  expired_card: { code: 'expired_card', message: 'Your card has expired.' },
};
const AUTHENTICATION_DECLINE = {
  code: 'authentication_required',
  decline_code: 'authentication_required',
  message: 'Your card was declined. This transaction requires authentication.',
};

/** `a[b][0]=c&a[b][1]=d` as Stripe's form encoding nests it: `{ a: { b: ['c', 'd'] } }`. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let node: Record<string, unknown> = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  const arrays = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, arrays(v)] as const);
    return entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))
      ? entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v)
      : Object.fromEntries(entries);
  };
  return arrays(root) as Record<string, unknown>;
}

export interface StripeFake {
  /** The API base to give STRIPE_API_HOST, `http://127.0.0.1:<port>`. */
  url: string;
  secretKey: string;
  /** Every PaymentIntent made, declined ones too, oldest first. */
  paymentIntents(): PaymentIntentRecord[];
  customers(): string[];
  /** The customer a PaymentMethod is attached to, null when none, undefined when Stripe has no such one. */
  customerOf(paymentMethodId: string): string | null | undefined;
  /** A PaymentMethod as Stripe.js makes one in the browser from a test card: not attached, usable once. */
  createPaymentMethod(testCard: keyof typeof TEST_PAYMENT_METHODS): string;
  /** The next `count` requests are answered with this 5xx (or other status) as Stripe's api_error, doing nothing. */
  failNext(status?: number, count?: number): void;
  /**
   * The next `count` POST requests (those whose lost answer leaves an outcome unknown) are carried
   * out, then their connections closed without an answer; reads are answered.
   */
  loseAnswers(count?: number): void;
  /** Stripe forgets every idempotency key it has seen, as it does 24 hours after a key's first use. */
  forgetIdempotencyKeys(): void;
  /** A PaymentIntent's status is changed as Stripe might later (a payment that was processing). */
  setStatus(paymentIntentId: string, status: PaymentIntentRecord['status']): void;
  /** The JSON of an event about a PaymentIntent, as Stripe posts it to a webhook. */
  eventJson(type: string, paymentIntentId: string): string;
  /** How many requests came in with each `METHOD path`. */
  requests: string[];
  close(): Promise<void>;
}

export async function startStripeFake(secretKey = 'sk_test_fake_0123456789abcdef'): Promise<StripeFake> {
  const customers = new Set<string>();
  const paymentMethods = new Map<string, PaymentMethodRecord>();
  const setupIntents = new Map<string, SetupIntentRecord>();
  const paymentIntents = new Map<string, PaymentIntentRecord>();
  const idempotent = new Map<string, { fingerprint: string; answer: Answer }>();
  const requests: string[] = [];
  let failNextWith: number | undefined;
  let failuresLeft = 0;
  let answersToLose = 0;

  function newPaymentMethod(card: TestCard): PaymentMethodRecord {
    const record: PaymentMethodRecord = {
      id: id('pm'),
      card: { ...card, expMonth: 12, expYear: new Date().getUTCFullYear() + 3 },
      customer: null,
      spent: false,
      created: now(),
    };
    paymentMethods.set(record.id, record);
    return record;
  }

  /** A test PaymentMethod makes a new one at each use, as at Stripe; any other must exist. */
  function resolvePaymentMethod(value: unknown): PaymentMethodRecord {
    const name = String(value ?? '');
    const testCard = TEST_PAYMENT_METHODS[name];
    if (testCard) return newPaymentMethod(testCard);
    const record = paymentMethods.get(name);
    if (!record) throw missing('payment_method', 'PaymentMethod', name);
    return record;
  }

  function requireCustomer(value: unknown): string {
    const name = String(value ?? '');
    if (!customers.has(name)) throw missing('customer', 'customer', name);
    return name;
  }

  const paymentMethodJson = (record: PaymentMethodRecord) => ({
    id: record.id,
    object: 'payment_method',
    type: 'card',
    customer: record.customer,
    created: record.created,
    livemode: false,
    metadata: {},
    billing_details: { address: null, email: null, name: null, phone: null },
    card: {
      brand: record.card.brand,
      display_brand: record.card.brand,
      last4: record.card.last4,
      exp_month: record.card.expMonth,
      exp_year: record.card.expYear,
      funding: 'credit',
      country: 'US',
    },
  });

  const expanded = (expand: unknown, paymentMethodId: string) =>
    Array.isArray(expand) && expand.includes('payment_method')
      ? paymentMethodJson(paymentMethods.get(paymentMethodId)!)
      : paymentMethodId;

  const paymentIntentJson = (record: PaymentIntentRecord, expand?: unknown) => ({
    id: record.id,
    object: 'payment_intent',
    amount: record.amount,
    amount_received: record.status === 'succeeded' ? record.amount : 0,
    currency: record.currency,
    customer: record.customer,
    description: record.description,
    metadata: record.metadata,
    payment_method: expanded(expand, record.paymentMethod),
    payment_method_types: ['card'],
    capture_method: 'automatic',
    confirmation_method: 'automatic',
    status: record.status,
    last_payment_error: record.lastPaymentError,
    latest_charge: record.status === 'succeeded' ? `ch_${record.id.slice(3)}` : null,
    next_action: record.status === 'requires_action' ? { type: 'use_stripe_sdk', use_stripe_sdk: {} } : null,
    client_secret: `${record.id}_secret_${record.id.slice(3, 9)}`,
    created: record.created,
    livemode: false,
  });

  const setupIntentJson = (record: SetupIntentRecord, expand?: unknown) => ({
    id: record.id,
    object: 'setup_intent',
    customer: record.customer,
    metadata: record.metadata,
    payment_method: expanded(expand, record.paymentMethod),
    payment_method_types: ['card'],
    usage: 'off_session',
    status: record.status,
    last_setup_error: record.lastSetupError,
    next_action: record.status === 'requires_action' ? { type: 'use_stripe_sdk', use_stripe_sdk: {} } : null,
    client_secret: `${record.id}_secret_${record.id.slice(5, 11)}`,
    created: record.created,
    livemode: false,
  });

  function createSetupIntent(params: Record<string, unknown>): Answer {
    const customer = requireCustomer(params.customer);
    const paymentMethod = resolvePaymentMethod(params.payment_method);
    if (paymentMethod.spent || (paymentMethod.customer !== null && paymentMethod.customer !== customer))
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        param: 'payment_method',
        message:
          'The provided PaymentMethod was previously used or belongs to another customer; it may not be used again.',
      });
    const record: SetupIntentRecord = {
      id: id('seti'),
      customer,
      paymentMethod: paymentMethod.id,
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      status: 'succeeded',
      lastSetupError: null,
      created: now(),
    };
    setupIntents.set(record.id, record);
    const { behaviour } = paymentMethod.card;
    if (behaviour === 'authentication_required') {
      record.status = 'requires_action';
    } else if (behaviour !== 'succeeds' && behaviour !== 'charge_fails') {
      record.status = 'requires_payment_method';
      record.lastSetupError = { type: 'card_error', ...DECLINES[behaviour] };
      throw new StripeApiError(402, {
        type: 'card_error',
        ...DECLINES[behaviour],
        setup_intent: setupIntentJson(record),
      });
    } else {
      paymentMethod.customer = customer;
    }
    return { status: 200, body: setupIntentJson(record, params.expand) };
  }

  function createPaymentIntent(params: Record<string, unknown>): Answer {
    const amount = Number(params.amount);
    if (!Number.isInteger(amount) || amount < 50)
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'amount_too_small',
        param: 'amount',
        message: 'Amount must be at least $0.50 usd',
      });
    const customer = params.customer === undefined ? null : requireCustomer(params.customer);
    const paymentMethod = resolvePaymentMethod(params.payment_method);
    const usable = customer
      ? paymentMethod.customer === customer || (paymentMethod.customer === null && !paymentMethod.spent)
      : paymentMethod.customer === null && !paymentMethod.spent;
    if (!usable)
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        param: 'payment_method',
        message: customer
          ? `The provided PaymentMethod does not belong to the customer ${customer}.`
          : 'The provided PaymentMethod was previously used without being attached to a Customer; it may not be used again.',
      });
    if (paymentMethod.customer === null) paymentMethod.spent = true;
    const offSession = params.off_session === 'true';
    const record: PaymentIntentRecord = {
      id: id('pi'),
      amount,
      currency: String(params.currency),
      customer,
      description: typeof params.description === 'string' ? params.description : null,
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      paymentMethod: paymentMethod.id,
      offSession,
      status: 'succeeded',
      lastPaymentError: null,
      created: now(),
    };
    paymentIntents.set(record.id, record);
    const { behaviour } = paymentMethod.card;
    if (behaviour === 'authentication_required' && !offSession) {
      record.status = 'requires_action';
    } else if (behaviour !== 'succeeds') {
      const decline = behaviour === 'authentication_required' ? AUTHENTICATION_DECLINE : DECLINES[behaviour];
      record.status = 'requires_payment_method';
      record.lastPaymentError = {
        type: 'card_error',
        ...decline,
        payment_method: paymentMethodJson(paymentMethod),
      };
      throw new StripeApiError(402, {
        type: 'card_error',
        ...decline,
        charge: `ch_${record.id.slice(3)}`,
        payment_intent: paymentIntentJson(record),
      });
    }
    return { status: 200, body: paymentIntentJson(record, params.expand) };
  }

  /**
   * Stripe's search of PaymentIntents for the one query the portal makes, `metadata['k']:'v'` (a
   * value with `\'` and `\\` escapes), newest first; it is up to date at once, unlike Stripe's.
   */
  function searchPaymentIntents(params: Record<string, unknown>): Answer {
    const query = String(params.query ?? '');
    const match = query.match(/^metadata\['([^']+)'\]:'((?:[^'\\]|\\.)*)'$/);
    if (!match)
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        param: 'query',
        message: `The fake searches only metadata['key']:'value', not: ${query}`,
      });
    const [, key, escaped] = match as unknown as [string, string, string];
    const value = escaped.replace(/\\(.)/g, '$1');
    const limit = params.limit === undefined ? 10 : Number(params.limit);
    const expand = Array.isArray(params.expand) && params.expand.includes('data.payment_method');
    const data = [...paymentIntents.values()]
      .filter((record) => record.metadata[key] === value)
      .reverse()
      .slice(0, limit)
      .map((record) => paymentIntentJson(record, expand ? ['payment_method'] : undefined));
    return {
      status: 200,
      body: {
        object: 'search_result',
        url: '/v1/payment_intents/search',
        data,
        has_more: false,
        next_page: null,
      },
    };
  }

  function paymentIntentOf(paymentIntentId: string): PaymentIntentRecord {
    const record = paymentIntents.get(paymentIntentId);
    if (!record) throw missing('id', 'payment_intent', paymentIntentId);
    return record;
  }

  /** One API call: its answer, or a StripeApiError. */
  function route(method: string, path: string, params: Record<string, unknown>): Answer {
    let match: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const customer = id('cus');
      customers.add(customer);
      return {
        status: 200,
        body: {
          id: customer,
          object: 'customer',
          metadata: params.metadata ?? {},
          created: now(),
          livemode: false,
        },
      };
    }
    if (method === 'POST' && path === '/v1/setup_intents') return createSetupIntent(params);
    if (method === 'POST' && (match = path.match(/^\/v1\/setup_intents\/([^/]+)\/cancel$/))) {
      const record = setupIntents.get(match[1]!);
      if (!record) throw missing('id', 'setup_intent', match[1]!);
      record.status = 'canceled';
      return { status: 200, body: setupIntentJson(record) };
    }
    if (method === 'POST' && path === '/v1/payment_intents') return createPaymentIntent(params);
    if (method === 'GET' && path === '/v1/payment_intents/search') return searchPaymentIntents(params);
    if (method === 'GET' && (match = path.match(/^\/v1\/payment_intents\/([^/]+)$/)))
      return { status: 200, body: paymentIntentJson(paymentIntentOf(match[1]!), params.expand) };
    if (method === 'POST' && (match = path.match(/^\/v1\/payment_intents\/([^/]+)\/cancel$/))) {
      const record = paymentIntentOf(match[1]!);
      if (record.status === 'succeeded' || record.status === 'canceled')
        throw new StripeApiError(400, {
          type: 'invalid_request_error',
          code: 'payment_intent_unexpected_state',
          message: `You cannot cancel this PaymentIntent because it has a status of ${record.status}.`,
        });
      record.status = 'canceled';
      return { status: 200, body: paymentIntentJson(record) };
    }
    if ((match = path.match(/^\/v1\/payment_methods\/([^/]+)(\/detach)?$/))) {
      // A test PaymentMethod read by its name is a new one, as at Stripe.
      if (method === 'GET' && !match[2] && TEST_PAYMENT_METHODS[match[1]!])
        return { status: 200, body: paymentMethodJson(resolvePaymentMethod(match[1])) };
      const record = paymentMethods.get(match[1]!);
      if (!record) throw missing('id', 'PaymentMethod', match[1]!);
      if (method === 'GET' && !match[2]) return { status: 200, body: paymentMethodJson(record) };
      if (method === 'POST' && match[2]) {
        if (record.customer === null)
          throw new StripeApiError(400, {
            type: 'invalid_request_error',
            message:
              'The payment method you provided is not attached to a customer so detachment is impossible.',
          });
        record.customer = null;
        record.spent = true;
        return { status: 200, body: paymentMethodJson(record) };
      }
    }
    throw new StripeApiError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  }

  function answer(
    method: string,
    url: URL,
    body: string,
    key: string | undefined,
  ): Answer & { replayed?: boolean } {
    const params = method === 'GET' ? parseStripeForm(url.search.slice(1)) : parseStripeForm(body);
    const fingerprint = `${method} ${url.pathname} ${body}`;
    if (key !== undefined && method === 'POST') {
      const stored = idempotent.get(key);
      if (stored && stored.fingerprint !== fingerprint)
        return {
          status: 400,
          body: {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            },
          },
        };
      if (stored) return { ...stored.answer, replayed: true };
    }
    let result: Answer;
    try {
      result = route(method, url.pathname, params);
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      result = { status: error.status, body: { error: { ...error.error, request_log_url: null } } };
    }
    // Stripe keeps the answer of a request that ran (a success or a card's refusal), not of one
    // refused before it ran.
    if (key !== undefined && method === 'POST' && (result.status === 200 || result.status === 402))
      idempotent.set(key, { fingerprint, answer: result });
    return result;
  }

  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stripe.fake');
      const method = request.method ?? 'GET';
      requests.push(`${method} ${url.pathname}`);
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, {
          'content-type': 'application/json',
          'request-id': id('req'),
          'stripe-version': String(request.headers['stripe-version'] ?? ''),
          ...headers,
        });
        response.end(JSON.stringify(payload, null, 2));
      };
      if (request.headers.authorization !== `Bearer ${secretKey}`) {
        send(401, {
          error: {
            type: 'invalid_request_error',
            message: 'Invalid API Key provided: the fake knows one key.',
          },
        });
        return;
      }
      if (failNextWith !== undefined && failuresLeft > 0) {
        const status = failNextWith;
        failuresLeft -= 1;
        send(status, { error: { type: 'api_error', message: 'An unknown error occurred' } });
        return;
      }
      const key = request.headers['idempotency-key'];
      const result = answer(method, url, body, typeof key === 'string' ? key : undefined);
      if (answersToLose > 0 && method === 'POST') {
        answersToLose -= 1;
        request.socket.destroy();
        return;
      }
      send(result.status, result.body, result.replayed ? { 'idempotent-replayed': 'true' } : {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    requests,
    paymentIntents: () => [...paymentIntents.values()],
    customers: () => [...customers],
    customerOf: (paymentMethodId) => paymentMethods.get(paymentMethodId)?.customer,
    createPaymentMethod: (testCard) => newPaymentMethod(TEST_PAYMENT_METHODS[testCard]!).id,
    failNext: (status = 500, count = 1) => {
      failNextWith = status;
      failuresLeft = count;
    },
    loseAnswers: (count = 1) => {
      answersToLose = count;
    },
    forgetIdempotencyKeys: () => idempotent.clear(),
    setStatus: (paymentIntentId, status) => {
      paymentIntentOf(paymentIntentId).status = status;
    },
    eventJson: (type, paymentIntentId) =>
      JSON.stringify(
        {
          id: id('evt'),
          object: 'event',
          api_version: '2026-10-28.endive',
          created: now(),
          type,
          livemode: false,
          pending_webhooks: 1,
          request: { id: null, idempotency_key: null },
          data: { object: paymentIntentJson(paymentIntentOf(paymentIntentId)) },
        },
        null,
        2,
      ),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
