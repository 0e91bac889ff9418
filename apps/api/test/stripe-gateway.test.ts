import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PaymentProfile, TopUpResponse } from '@portal/contracts';
import { asc, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { reconcilePaymentAttempts } from '../src/modules/payments/payments.jobs.ts';
import {
  CardRefusedError,
  GatewayUnavailableError,
  type ChargeRequest,
} from '../src/payments/payment-gateway.ts';
import { ATTEMPT_KEY_METADATA, StripeGateway } from '../src/payments/stripe-gateway.ts';
import { testConfig } from './fixtures.ts';
import { expectApiError, jsonRequest, setUpOrganization, useTestApp } from './helper.ts';
import { startStripeFake } from './stripe-fake.ts';

/*
 * The Stripe gateway against a local stand-in for Stripe's API (stripe-fake.ts) that answers in
 * Stripe's shapes: the adapter on its own, then the portal with PAYMENT_PROVIDER=stripe through its
 * API (cards, top-up, paying an invoice, reconciliation) and Stripe's webhook, whose events are
 * signed as Stripe signs them (the SDK's generateTestHeaderString).
 */

const PUBLISHABLE_KEY = 'pk_test_portal0123456789';
const WEBHOOK_SECRET = 'whsec_portal0123456789abcdef';
const fake = await startStripeFake();
afterAll(() => fake.close());

const stripeEnv = {
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: fake.secretKey,
  STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_HOST: fake.url,
};

function adapter(options: { apiHost?: string; secretKey?: string } = {}) {
  return new StripeGateway({
    secretKey: options.secretKey ?? fake.secretKey,
    publishableKey: PUBLISHABLE_KEY,
    webhookSecret: WEBHOOK_SECRET,
    apiHost: options.apiHost ?? fake.url,
    maxNetworkRetries: 0,
  });
}

let keyCounter = 0;
function charge(source: ChargeRequest['source'], amountCents = 1234): ChargeRequest {
  return {
    amountCents,
    idempotencyKey: `stripe-test-${(keyCounter += 1)}-${Date.now()}`,
    description: 'Prepaid balance top-up',
    source,
  };
}

/** Test PaymentMethods Stripe refuses both when saved and when charged, and the portal's refusal. */
const REFUSED_CARDS = [
  ['pm_card_chargeDeclined', 'card_declined'],
  ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
  ['pm_card_chargeDeclinedExpiredCard', 'expired_card'],
  ['pm_card_authenticationRequired', 'authentication_required'],
  ['pm_unknown0123', 'invalid_token'],
] as const;

const intentsWithKey = (idempotencyKey: string) =>
  fake.paymentIntents().filter((intent) => intent.metadata[ATTEMPT_KEY_METADATA] === idempotencyKey);

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
/** How many times the gateway has searched PaymentIntents, and created them. */
const searches = () => fake.requests.filter((request) => request === 'GET /v1/payment_intents/search').length;
const creations = () => fake.requests.filter((request) => request === 'POST /v1/payment_intents').length;

describe('the Stripe adapter', () => {
  const gateway = adapter();

  it('tells the browser the publishable key, the keys’ mode and no tokeniser of its own', () => {
    expect(gateway.clientConfiguration()).toEqual({
      provider: 'stripe',
      publicKey: PUBLISHABLE_KEY,
      siteSubdomain: 'test',
      tokenizeUrl: null,
    });
    const live = new StripeGateway({
      secretKey: 'sk_live_x',
      publishableKey: 'pk_live_x',
      webhookSecret: WEBHOOK_SECRET,
    });
    expect(live.clientConfiguration().siteSubdomain).toBe('live');
  });

  it('saves a card under a customer made on first use, then under the same customer, with its brand in the portal’s words', async () => {
    const first = await gateway.saveCard({
      token: 'pm_card_visa',
      customerRef: null,
      organizationId: 'org-1',
    });
    expect(first.customerRef).toMatch(/^cus_/);
    expect(first.card).toMatchObject({ brand: 'visa', last4: '4242', expMonth: 12 });
    // A test PaymentMethod is a new PaymentMethod each time it is used, as at Stripe.
    expect(first.card.paymentMethodRef).toMatch(/^pm_/);
    expect(first.card.paymentMethodRef).not.toBe('pm_card_visa');
    expect(fake.customerOf(first.card.paymentMethodRef)).toBe(first.customerRef);

    const brands: [string, string][] = [];
    for (const token of [
      'pm_card_mastercard',
      'pm_card_amex',
      'pm_card_discover',
      'pm_card_jcb',
      'pm_card_unionpay',
    ]) {
      const saved = await gateway.saveCard({
        token,
        customerRef: first.customerRef,
        organizationId: 'org-1',
      });
      expect(saved.customerRef).toBe(first.customerRef);
      brands.push([token, saved.card.brand]);
    }
    expect(brands).toEqual([
      ['pm_card_mastercard', 'master'],
      ['pm_card_amex', 'american_express'],
      ['pm_card_discover', 'discover'],
      ['pm_card_jcb', 'jcb'],
      ['pm_card_unionpay', 'unionpay'],
    ]);
  });

  it('makes the customer again when Stripe no longer knows it', async () => {
    const saved = await gateway.saveCard({
      token: 'pm_card_visa',
      customerRef: 'cus_gone',
      organizationId: 'org-2',
    });
    expect(saved.customerRef).toMatch(/^cus_/);
    expect(saved.customerRef).not.toBe('cus_gone');
    expect(fake.customerOf(saved.card.paymentMethodRef)).toBe(saved.customerRef);
  });

  it.each(REFUSED_CARDS)('refuses to save %s: %s', async (token, refusal) => {
    const saving = gateway.saveCard({ token, customerRef: null, organizationId: 'org-3' });
    await expect(saving).rejects.toBeInstanceOf(CardRefusedError);
    await expect(saving).rejects.toMatchObject({ refusal });
  });

  it('reads the card of a PaymentMethod without confirming anything with it', async () => {
    const token = fake.createPaymentMethod('pm_card_unionpay');
    expect(await gateway.tokenCard(token)).toMatchObject({ brand: 'unionpay', expMonth: 12 });
    expect(fake.paymentIntents()).not.toContainEqual(expect.objectContaining({ paymentMethod: token }));
    expect((await gateway.tokenCard('pm_card_amex')).brand).toBe('american_express');
    for (const unknown of ['pm_unknown', '..', '.']) {
      await expect(gateway.tokenCard(unknown)).rejects.toMatchObject({
        name: 'CardRefusedError',
        refusal: 'invalid_token',
      });
    }
  });

  it('detaches a removed card; one already removed or unknown counts as removed', async () => {
    const { card } = await gateway.saveCard({
      token: 'pm_card_visa',
      customerRef: null,
      organizationId: 'org-4',
    });
    await gateway.removeCard(card.paymentMethodRef);
    expect(fake.customerOf(card.paymentMethodRef)).toBeNull();
    await expect(gateway.removeCard(card.paymentMethodRef)).resolves.toBeUndefined();
    await expect(gateway.removeCard('pm_never0123')).resolves.toBeUndefined();
  });

  it('charges a new card on-session and a saved one off-session, naming the attempt in the metadata', async () => {
    const request = charge({ token: 'pm_card_visa' });
    const outcome = await gateway.charge(request);
    expect(outcome).toMatchObject({ outcome: 'succeeded', card: { brand: 'visa', last4: '4242' } });
    const [intent] = intentsWithKey(request.idempotencyKey);
    expect(intent).toMatchObject({
      amount: 1234,
      currency: 'usd',
      customer: null,
      offSession: false,
      description: 'Prepaid balance top-up',
      status: 'succeeded',
    });
    expect(outcome.outcome === 'succeeded' && outcome.chargeRef).toBe(intent!.id);

    const { card, customerRef } = await gateway.saveCard({
      token: 'pm_card_mastercard',
      customerRef: null,
      organizationId: 'org-5',
    });
    const saved = charge({ paymentMethodRef: card.paymentMethodRef, customerRef });
    expect(await gateway.charge(saved)).toMatchObject({ outcome: 'succeeded', card: { brand: 'master' } });
    expect(intentsWithKey(saved.idempotencyKey)).toMatchObject([
      { customer: customerRef, paymentMethod: card.paymentMethodRef, offSession: true },
    ]);
  });

  it.each(REFUSED_CARDS)('refuses a charge of %s: %s', async (token, refusal) => {
    const request = charge({ token });
    expect(await gateway.charge(request)).toMatchObject({ outcome: 'refused', refusal });
  });

  it('cancels a PaymentIntent that asks for 3-D Secure instead of leaving it waiting', async () => {
    const request = charge({ token: 'pm_card_authenticationRequired' });
    await gateway.charge(request);
    expect(intentsWithKey(request.idempotencyKey)).toMatchObject([{ status: 'canceled' }]);
  });

  it('refuses a saved card that Stripe declines when charged, and a card entered once and used already', async () => {
    const { card, customerRef } = await gateway.saveCard({
      token: 'pm_card_chargeCustomerFail',
      customerRef: null,
      organizationId: 'org-6',
    });
    expect(
      await gateway.charge(charge({ paymentMethodRef: card.paymentMethodRef, customerRef })),
    ).toMatchObject({
      outcome: 'refused',
      refusal: 'card_declined',
    });

    const entered = fake.createPaymentMethod('pm_card_visa');
    expect(await gateway.charge(charge({ token: entered }))).toMatchObject({ outcome: 'succeeded' });
    expect(await gateway.charge(charge({ token: entered }))).toMatchObject({
      outcome: 'refused',
      refusal: 'invalid_token',
    });
  });

  it('answers the first outcome again for the same idempotency key, charging once', async () => {
    const request = charge({ token: 'pm_card_visa' });
    const first = await gateway.charge(request);
    expect(await gateway.charge(request)).toEqual(first);
    expect(intentsWithKey(request.idempotencyKey)).toHaveLength(1);

    const declined = charge({ token: 'pm_card_chargeDeclinedInsufficientFunds' });
    await gateway.charge(declined);
    expect(await gateway.charge(declined)).toMatchObject({
      outcome: 'refused',
      refusal: 'insufficient_funds',
    });
    expect(intentsWithKey(declined.idempotencyKey)).toHaveLength(1);
  });

  it('throws a plain error, not an unknown outcome, for the same key with another amount', async () => {
    const request = charge({ token: 'pm_card_visa' });
    await gateway.charge(request);
    const reused = gateway.charge({ ...request, amountCents: request.amountCents + 1 });
    await expect(reused).rejects.toThrow(/idempotent/);
    await expect(reused).rejects.not.toBeInstanceOf(GatewayUnavailableError);
    expect(intentsWithKey(request.idempotencyKey)).toHaveLength(1);
  });

  it('takes a lost answer or a 5xx for an unknown outcome, which the same key then learns', async () => {
    const lost = charge({ token: 'pm_card_visa' });
    // The SDK asks once more on a closed connection whatever its retries; that answer is lost too.
    fake.loseAnswers(2);
    await expect(gateway.charge(lost)).rejects.toBeInstanceOf(GatewayUnavailableError);
    expect(intentsWithKey(lost.idempotencyKey)).toMatchObject([{ status: 'succeeded' }]);
    expect(await gateway.charge(lost)).toMatchObject({ outcome: 'succeeded' });
    expect(intentsWithKey(lost.idempotencyKey)).toHaveLength(1);

    const failed = charge({ token: 'pm_card_visa' });
    fake.failNext(500);
    await expect(gateway.charge(failed)).rejects.toBeInstanceOf(GatewayUnavailableError);
    expect(intentsWithKey(failed.idempotencyKey)).toHaveLength(0);
    fake.failNext(503);
    await expect(
      gateway.saveCard({ token: 'pm_card_visa', customerRef: null, organizationId: 'org-7' }),
    ).rejects.toBeInstanceOf(GatewayUnavailableError);
  });

  it('takes a processing PaymentIntent for an unknown outcome', async () => {
    const request = charge({ token: 'pm_card_visa' });
    await gateway.charge(request);
    const [intent] = intentsWithKey(request.idempotencyKey);
    fake.setStatus(intent!.id, 'processing');
    expect(await gateway.readPaymentIntent(intent!.id)).toMatchObject({
      idempotencyKey: request.idempotencyKey,
      amountCents: 1234,
      outcome: undefined,
    });
  });

  describe('an attempt older than Stripe keeps idempotency keys (24 hours)', () => {
    it('is what the fake stands for: a key sent again after Stripe forgot it charges again', async () => {
      const request = charge({ token: 'pm_card_visa' });
      await gateway.charge(request);
      fake.forgetIdempotencyKeys();
      await gateway.charge(request);
      expect(intentsWithKey(request.idempotencyKey)).toHaveLength(2);
    });

    it('is settled from the PaymentIntent its metadata names, found by search, without charging again', async () => {
      const request = charge({ token: 'pm_card_visa' });
      const first = await gateway.charge(request);
      fake.forgetIdempotencyKeys();
      const [searched, created] = [searches(), creations()];
      expect(await gateway.charge({ ...request, attemptCreatedAt: hoursAgo(25) })).toEqual(first);
      expect(intentsWithKey(request.idempotencyKey)).toHaveLength(1);
      expect([searches() - searched, creations() - created]).toEqual([1, 0]);

      const { card, customerRef } = await gateway.saveCard({
        token: 'pm_card_mastercard',
        customerRef: null,
        organizationId: 'org-old-1',
      });
      const saved = charge({ paymentMethodRef: card.paymentMethodRef, customerRef });
      await gateway.charge(saved);
      fake.forgetIdempotencyKeys();
      expect(await gateway.charge({ ...saved, attemptCreatedAt: hoursAgo(23.5) })).toMatchObject({
        outcome: 'succeeded',
        card: { brand: 'master' },
      });
      expect(intentsWithKey(saved.idempotencyKey)).toHaveLength(1);
    });

    it('answers a declined PaymentIntent found as the refusal, and a processing one as an unknown outcome', async () => {
      const declined = charge({ token: 'pm_card_chargeDeclinedInsufficientFunds' });
      await gateway.charge(declined);
      const processing = charge({ token: 'pm_card_visa' });
      await gateway.charge(processing);
      fake.setStatus(intentsWithKey(processing.idempotencyKey)[0]!.id, 'processing');
      fake.forgetIdempotencyKeys();

      expect(await gateway.charge({ ...declined, attemptCreatedAt: hoursAgo(30) })).toMatchObject({
        outcome: 'refused',
        refusal: 'insufficient_funds',
      });
      await expect(gateway.charge({ ...processing, attemptCreatedAt: hoursAgo(30) })).rejects.toBeInstanceOf(
        GatewayUnavailableError,
      );
      expect(intentsWithKey(declined.idempotencyKey)).toHaveLength(1);
      expect(intentsWithKey(processing.idempotencyKey)).toHaveLength(1);
    });

    it('never charges one Stripe has no PaymentIntent for: unknown while the search may lag, then attempt_expired', async () => {
      const neverSent = charge({ token: 'pm_card_visa' });
      const created = creations();
      await expect(gateway.charge({ ...neverSent, attemptCreatedAt: hoursAgo(23.5) })).rejects.toBeInstanceOf(
        GatewayUnavailableError,
      );
      expect(await gateway.charge({ ...neverSent, attemptCreatedAt: hoursAgo(24.1) })).toMatchObject({
        outcome: 'refused',
        refusal: 'attempt_expired',
      });
      expect(creations()).toBe(created);
      expect(intentsWithKey(neverSent.idempotencyKey)).toHaveLength(0);
    });

    it('is a search Stripe does not answer: an unknown outcome', async () => {
      fake.failNext(500);
      await expect(
        gateway.charge({ ...charge({ token: 'pm_card_visa' }), attemptCreatedAt: hoursAgo(25) }),
      ).rejects.toBeInstanceOf(GatewayUnavailableError);
    });

    it('but a younger attempt is asked about with its key, which Stripe still has: no search', async () => {
      const lost = charge({ token: 'pm_card_visa' });
      fake.loseAnswers(2);
      await expect(gateway.charge({ ...lost, attemptCreatedAt: hoursAgo(22) })).rejects.toBeInstanceOf(
        GatewayUnavailableError,
      );
      const searched = searches();
      expect(await gateway.charge({ ...lost, attemptCreatedAt: hoursAgo(22) })).toMatchObject({
        outcome: 'succeeded',
      });
      expect(searches()).toBe(searched);
      expect(intentsWithKey(lost.idempotencyKey)).toHaveLength(1);

      // One the gateway never saw is charged now with its key, as before.
      const unsent = charge({ token: 'pm_card_visa' });
      expect(await gateway.charge({ ...unsent, attemptCreatedAt: hoursAgo(1) })).toMatchObject({
        outcome: 'succeeded',
      });
      expect(searches()).toBe(searched);
    });
  });

  it('takes a gateway nobody answers at for an unknown outcome, and a wrong key for the portal’s mistake', async () => {
    const closed = adapter({ apiHost: 'http://127.0.0.1:9' });
    await expect(closed.charge(charge({ token: 'pm_card_visa' }))).rejects.toBeInstanceOf(
      GatewayUnavailableError,
    );
    await expect(
      closed.saveCard({ token: 'pm_card_visa', customerRef: null, organizationId: 'org-8' }),
    ).rejects.toBeInstanceOf(GatewayUnavailableError);
    await expect(closed.removeCard('pm_any0123')).rejects.toBeInstanceOf(GatewayUnavailableError);

    const wrongKey = adapter({ secretKey: 'sk_test_wrong0123' });
    const refused = wrongKey.charge(charge({ token: 'pm_card_visa' }));
    await expect(refused).rejects.toThrow(/Stripe refused charging/);
    await expect(refused).rejects.not.toBeInstanceOf(GatewayUnavailableError);
  });

  it('refuses an amount below Stripe’s minimum charge as a decline', async () => {
    expect(await gateway.charge(charge({ token: 'pm_card_visa' }, 49))).toMatchObject({
      outcome: 'refused',
      refusal: 'card_declined',
    });
  });
});

describe('PAYMENT_PROVIDER=stripe configuration', () => {
  it('refuses to start without each of its keys, or with keys of two modes', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-stripe-config-'));
    onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    for (const missing of ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
      const env: Record<string, string> = { ...stripeEnv };
      delete env[missing];
      expect(() => testConfig(dataDir, env)).toThrow(
        `Invalid configuration: ${missing} is required when PAYMENT_PROVIDER=stripe`,
      );
    }
    expect(() => testConfig(dataDir, { ...stripeEnv, STRIPE_PUBLISHABLE_KEY: 'pk_live_portal0123' })).toThrow(
      'Invalid configuration: STRIPE_PUBLISHABLE_KEY is a live key and STRIPE_SECRET_KEY a test one',
    );
    expect(() => testConfig(dataDir, { ...stripeEnv, STRIPE_WEBHOOK_SECRET: 'secret' })).toThrow(
      /^Invalid configuration: STRIPE_WEBHOOK_SECRET must start with whsec_/,
    );
  });

  it('builds the portal with the Stripe gateway, whose webhook a sandbox portal does not have', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-stripe-build-'));
    const database = await openDatabase({ databaseUrl: undefined, dataDir: 'memory://' });
    const app = await buildApp({ config: testConfig(dataDir), database });
    onTestFinished(async () => {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    expect(app.paymentGateway.provider).toBe('sandbox');
    const webhook = await app.inject({ method: 'POST', url: '/api/v1/payments/stripe/webhook', payload: {} });
    expect(webhook.statusCode).toBe(404);
    const policy = String(webhook.headers['content-security-policy']);
    expect(policy).not.toContain('stripe.com');
  });
});

describe('the portal with PAYMENT_PROVIDER=stripe', () => {
  // One organisation is refused card after card here, well past the card-attempt limits
  // (card-abuse.test.ts tests those).
  const t = useTestApp({
    ...stripeEnv,
    CARD_ATTEMPTS_PER_MEMBER: '1000',
    CARD_ATTEMPTS_PER_ORGANIZATION: '1000',
    CARD_ATTEMPTS_PER_IP: '1000',
  });
  let cookie = '';
  let organizationId = '';

  beforeAll(async () => {
    cookie = await setUpOrganization(t.app, 'owner@stripe.example.com');
    const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
    organizationId = (me.json() as { organizationId: string }).organizationId;
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
    t.app.inject(jsonRequest(method, url, body, cookie));

  async function ledger() {
    return t.database.db
      .select()
      .from(schema.ledgerTransaction)
      .where(eq(schema.ledgerTransaction.organizationId, organizationId))
      .orderBy(asc(schema.ledgerTransaction.id));
  }

  async function attempts() {
    return t.database.db
      .select()
      .from(schema.paymentAttempt)
      .where(eq(schema.paymentAttempt.organizationId, organizationId))
      .orderBy(asc(schema.paymentAttempt.id));
  }

  async function openInvoice(amountCents: number): Promise<number> {
    const [invoice] = await t.database.db
      .insert(schema.ledgerTransaction)
      .values({
        organizationId,
        type: 'service_charge',
        status: 'open',
        invoiceType: 'mau_based',
        amountCents,
      })
      .returning({ id: schema.ledgerTransaction.id });
    return invoice!.id;
  }

  it('serves Stripe’s client configuration and lets the pages load Stripe.js and its frames', async () => {
    const configuration = await call('GET', '/api/v1/accounts/payment-gateway');
    expect(configuration.statusCode, configuration.body).toBe(200);
    expect(configuration.json()).toEqual({
      provider: 'stripe',
      publicKey: PUBLISHABLE_KEY,
      siteSubdomain: 'test',
      tokenizeUrl: null,
    });
    const policy = String(configuration.headers['content-security-policy']);
    const directives = policy.split(';');
    expect(directives).toContain("script-src 'self' https://js.stripe.com https://*.js.stripe.com");
    expect(directives).toContain(
      'frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com',
    );
    expect(directives).toContain("connect-src 'self' https://api.stripe.com");
  });

  let card: PaymentProfile;

  it('saves a card from a PaymentMethod, refuses a brand the portal does not take and a declined card', async () => {
    const added = await call('POST', '/api/v1/accounts/payment-profiles', { token: 'pm_card_visa' });
    expect(added.statusCode, added.body).toBe(201);
    card = added.json() as PaymentProfile;
    expect(card).toMatchObject({
      cardType: 'visa',
      maskedCardNumber: '**** **** **** 4242',
      defaultPayment: true,
    });
    const [row] = await t.database.db
      .select()
      .from(schema.paymentProfile)
      .where(eq(schema.paymentProfile.id, card.id));
    expect(row).toMatchObject({ provider: 'stripe' });
    const [organization] = await t.database.db
      .select()
      .from(schema.organization)
      .where(eq(schema.organization.id, organizationId));
    expect(fake.customerOf(row!.paymentMethodRef)).toBe(organization!.gatewayCustomerRef);

    const customersBefore = fake.customers().length;
    const jcb = await call('POST', '/api/v1/accounts/payment-profiles', { token: 'pm_card_jcb' });
    expectApiError(jcb, 422, 'CARD_NOT_SUPPORTED');
    const declined = await call('POST', '/api/v1/accounts/payment-profiles', {
      token: 'pm_card_chargeDeclined',
    });
    expectApiError(declined, 402, 'CARD_DECLINED');
    const needs3ds = await call('POST', '/api/v1/accounts/payment-profiles', {
      token: 'pm_card_authenticationRequired',
    });
    expect(expectApiError(needs3ds, 402, 'CARD_AUTHENTICATION_REQUIRED').message).toMatch(/3-D Secure/);
    // The organisation's customer is kept: no new one per card.
    expect(fake.customers()).toHaveLength(customersBefore);
    const listed = await call('GET', '/api/v1/accounts/payment-profiles');
    expect((listed.json() as PaymentProfile[]).map((profile) => profile.id)).toEqual([card.id]);
  });

  it('tops up 1000 with the saved card: one PaymentIntent, off-session, for the total, named by the attempt', async () => {
    const topUp = await call('POST', '/api/v1/accounts/topup', { amount: 1000, paymentProfileId: card.id });
    expect(topUp.statusCode, topUp.body).toBe(201);
    const answer = topUp.json() as TopUpResponse;
    const [attempt] = (await attempts()).slice(-1);
    expect(attempt).toMatchObject({ status: 'succeeded', cardBrand: 'visa', cardLast4: '4242' });
    const intents = intentsWithKey(attempt!.idempotencyKey);
    expect(intents).toMatchObject([
      { amount: Math.round(answer.total * 100), customer: expect.stringMatching(/^cus_/), offSession: true },
    ]);
    expect(attempt!.chargeRef).toBe(intents[0]!.id);
    expect((await ledger()).some((row) => row.type === 'topup')).toBe(true);
  });

  it('refuses a top-up with insufficient funds or 3-D Secure and leaves nothing behind', async () => {
    const before = await ledger();
    const poor = await call('POST', '/api/v1/accounts/topup', {
      amount: 50,
      token: 'pm_card_chargeDeclinedInsufficientFunds',
    });
    expectApiError(poor, 402, 'CARD_INSUFFICIENT_FUNDS');
    const needs3ds = await call('POST', '/api/v1/accounts/topup', {
      amount: 50,
      token: 'pm_card_authenticationRequired',
    });
    expectApiError(needs3ds, 402, 'CARD_AUTHENTICATION_REQUIRED');
    expect(await ledger()).toEqual(before);
    expect((await attempts()).slice(-2).map((attempt) => [attempt.status, attempt.refusal])).toEqual([
      ['refused', 'insufficient_funds'],
      ['refused', 'authentication_required'],
    ]);
  });

  it('pays an open invoice with a card entered for it', async () => {
    const invoiceId = await openInvoice(2500);
    const paid = await call('POST', `/api/v1/transactions/${invoiceId}/pay`, { token: 'pm_card_visa' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'paid', paidAmount: 25 });
    const [attempt] = (await attempts()).slice(-1);
    expect(intentsWithKey(attempt!.idempotencyKey)).toMatchObject([
      { amount: 2500, customer: null, description: `Invoice INV-${String(invoiceId).padStart(9, '0')}` },
    ]);
  });

  const reconcile = () =>
    reconcilePaymentAttempts(
      { db: t.database.db, payments: t.app.payments, log: t.app.log },
      new Date(Date.now() + 1000),
    );

  /** An invoice paid with the saved card whose answer, and the SDK's retries of it, are all lost. */
  async function lostInvoicePayment(amountCents: number) {
    const invoiceId = await openInvoice(amountCents);
    fake.loseAnswers(3);
    const lost = await call('POST', `/api/v1/transactions/${invoiceId}/pay`, { paymentProfileId: card.id });
    expectApiError(lost, 503, 'PAYMENT_NOT_CONFIRMED');
    const [pending] = (await attempts()).slice(-1);
    expect(pending!.status).toBe('pending');
    return { invoiceId, pending: pending! };
  }

  it('reconciles an attempt whose answer was lost by asking again with its key', async () => {
    // Stripe charged, the portal does not know.
    const { invoiceId, pending } = await lostInvoicePayment(1800);
    expect(intentsWithKey(pending.idempotencyKey)).toMatchObject([{ status: 'succeeded' }]);

    const searched = searches();
    const outcomes = await reconcile();
    expect(outcomes).toMatchObject({ succeeded: 1 });
    // A young attempt is asked about with its key: the same PaymentIntent, no search.
    expect(searches()).toBe(searched);
    const [settled] = (await attempts()).slice(-1);
    expect(settled).toMatchObject({ id: pending.id, status: 'succeeded' });
    expect(intentsWithKey(pending.idempotencyKey)).toHaveLength(1);
    const [invoice] = (await ledger()).filter((row) => row.id === invoiceId);
    expect(invoice!.status).toBe('paid');
  });

  async function age(attemptId: number, hours: number) {
    await t.database.db
      .update(schema.paymentAttempt)
      .set({ createdAt: hoursAgo(hours) })
      .where(eq(schema.paymentAttempt.id, attemptId));
  }

  it('reconciles an attempt left pending for over a day, after Stripe forgot its key, from its PaymentIntent: one charge', async () => {
    const { invoiceId, pending } = await lostInvoicePayment(2100);
    // The portal was down for over a day: Stripe no longer knows the key.
    await age(pending.id, 26);
    fake.forgetIdempotencyKeys();

    const created = creations();
    expect(await reconcile()).toEqual({ succeeded: 1, refused: 0, pending: 0 });
    expect(creations()).toBe(created);
    const intents = intentsWithKey(pending.idempotencyKey);
    expect(intents).toMatchObject([{ amount: 2100, status: 'succeeded' }]);
    const [settled] = (await attempts()).slice(-1);
    expect(settled).toMatchObject({ id: pending.id, status: 'succeeded', chargeRef: intents[0]!.id });
    const [invoice] = (await ledger()).filter((row) => row.id === invoiceId);
    expect(invoice!.status).toBe('paid');
  });

  it('settles an attempt over a day old that Stripe never charged as refused (attempt_expired), charging nothing', async () => {
    // A crash between writing the attempt and calling Stripe: the invoice is claimed, Stripe knows nothing.
    const invoiceId = await openInvoice(1500);
    await t.database.db
      .update(schema.ledgerTransaction)
      .set({ status: 'processing' })
      .where(eq(schema.ledgerTransaction.id, invoiceId));
    const [profile] = await t.database.db
      .select()
      .from(schema.paymentProfile)
      .where(eq(schema.paymentProfile.id, card.id));
    const [organization] = await t.database.db
      .select()
      .from(schema.organization)
      .where(eq(schema.organization.id, organizationId));
    const [attempt] = await t.database.db
      .insert(schema.paymentAttempt)
      .values({
        organizationId,
        idempotencyKey: crypto.randomUUID(),
        purpose: 'invoice',
        invoiceTransactionId: invoiceId,
        amountCents: 1500,
        paymentMethodRef: profile!.paymentMethodRef,
        customerRef: organization!.gatewayCustomerRef,
        createdAt: hoursAgo(23.5),
      })
      .returning();

    const created = creations();
    // Past the key's trusted 23 hours: looked up, not sent; not found yet, so left for the search to catch up.
    expect(await reconcile()).toEqual({ succeeded: 0, refused: 0, pending: 1 });
    await age(attempt!.id, 25);
    expect(await reconcile()).toEqual({ succeeded: 0, refused: 1, pending: 0 });
    expect(creations()).toBe(created);
    expect(intentsWithKey(attempt!.idempotencyKey)).toHaveLength(0);
    const [settled] = (await attempts()).slice(-1);
    expect(settled).toMatchObject({ id: attempt!.id, status: 'refused', refusal: 'attempt_expired' });
    // The invoice can be paid again, with the user's fresh consent and a fresh key.
    const [invoice] = (await ledger()).filter((row) => row.id === invoiceId);
    expect(invoice!.status).toBe('open');
  });

  it('removes a saved card at Stripe too', async () => {
    const extra = await call('POST', '/api/v1/accounts/payment-profiles', { token: 'pm_card_amex' });
    const profile = extra.json() as PaymentProfile;
    const [row] = await t.database.db
      .select()
      .from(schema.paymentProfile)
      .where(eq(schema.paymentProfile.id, profile.id));
    const removed = await call('DELETE', `/api/v1/accounts/payment-profiles/${profile.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(fake.customerOf(row!.paymentMethodRef)).toBeNull();
  });

  describe("Stripe's webhook", () => {
    const WEBHOOK = '/api/v1/payments/stripe/webhook';
    const signer = new Stripe('sk_test_signer');

    function post(payload: string, signature?: string, extraHeaders: Record<string, string> = {}) {
      return t.app.inject({
        method: 'POST',
        url: WEBHOOK,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          ...(signature ? { 'stripe-signature': signature } : {}),
          ...extraHeaders,
        },
        payload,
      });
    }

    const sign = (payload: string, secret = WEBHOOK_SECRET, timestamp?: number) =>
      signer.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });

    /** A top-up whose answer (and the SDK's retries) is lost: pending, while Stripe has its PaymentIntent. */
    async function pendingTopUp(token: string) {
      fake.loseAnswers(3);
      const lost = await call('POST', '/api/v1/accounts/topup', { amount: 20, token });
      expectApiError(lost, 503, 'PAYMENT_NOT_CONFIRMED');
      const [attempt] = (await attempts()).slice(-1);
      expect(attempt!.status).toBe('pending');
      const [intent] = intentsWithKey(attempt!.idempotencyKey);
      return { attempt: attempt!, intent: intent! };
    }

    const attemptById = async (id: number) => (await attempts()).find((attempt) => attempt.id === id)!;

    it('refuses an event without a valid Stripe-Signature with 400, whoever sends it, settling nothing', async () => {
      const { attempt, intent } = await pendingTopUp('pm_card_visa');
      const payload = fake.eventJson('payment_intent.succeeded', intent.id);
      const refused = [
        await post(payload),
        await post(payload, sign(payload, 'whsec_another0123456789')),
        await post(payload, sign(`${payload} `)),
        await post(payload, sign(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600)),
        await post(payload, 't=1,v1=00'),
        // A signed-in owner's session is no signature.
        await post(payload, undefined, { cookie, origin: 'http://localhost:3000' }),
      ];
      for (const response of refused) {
        const body = expectApiError(response, 400, 'WEBHOOK_SIGNATURE_INVALID');
        expect(body.message).toMatch(/Stripe-Signature/);
      }
      expect((await attemptById(attempt.id)).status).toBe('pending');
    });

    it('settles the pending attempt a payment_intent.succeeded names, once however often it comes', async () => {
      const { attempt, intent } = await pendingTopUp('pm_card_visa');
      const payload = fake.eventJson('payment_intent.succeeded', intent.id);
      const delivered = await post(payload, sign(payload));
      expect(delivered.statusCode, delivered.body).toBe(200);
      expect(delivered.json()).toEqual({ received: true });
      expect(await attemptById(attempt.id)).toMatchObject({
        status: 'succeeded',
        chargeRef: intent.id,
        cardBrand: 'visa',
      });
      // Stripe delivers again; the portal reconciles too: one top-up, one PaymentIntent.
      expect((await post(payload, sign(payload))).statusCode).toBe(200);
      await reconcilePaymentAttempts(
        { db: t.database.db, payments: t.app.payments, log: t.app.log },
        new Date(Date.now() + 1000),
      );
      const topUps = (await ledger()).filter((row) => row.idempotencyKey === attempt.idempotencyKey);
      expect(topUps.map((row) => row.type)).toEqual(['topup']);
      expect(intentsWithKey(attempt.idempotencyKey)).toHaveLength(1);
    });

    it('settles a payment_intent.payment_failed as a refusal, with Stripe’s reason', async () => {
      const { attempt, intent } = await pendingTopUp('pm_card_chargeDeclinedInsufficientFunds');
      const before = await ledger();
      const payload = fake.eventJson('payment_intent.payment_failed', intent.id);
      expect((await post(payload, sign(payload))).statusCode).toBe(200);
      expect(await attemptById(attempt.id)).toMatchObject({
        status: 'refused',
        refusal: 'insufficient_funds',
      });
      expect(await ledger()).toEqual(before);
    });

    it('acknowledges events it does not act on, and leaves a processing PaymentIntent pending', async () => {
      const { attempt, intent } = await pendingTopUp('pm_card_visa');
      fake.setStatus(intent.id, 'processing');
      for (const type of ['payment_intent.succeeded', 'payment_intent.created', 'charge.refunded']) {
        const payload = fake.eventJson(type, intent.id);
        const response = await post(payload, sign(payload));
        expect(response.statusCode, `${type}: ${response.body}`).toBe(200);
      }
      expect((await attemptById(attempt.id)).status).toBe('pending');

      // A PaymentIntent the portal did not make (another integration on the account) is left alone.
      const foreign = await adapter().charge(charge({ token: 'pm_card_visa' }));
      const foreignId = foreign.outcome === 'succeeded' ? foreign.chargeRef : '';
      const payload = fake.eventJson('payment_intent.succeeded', foreignId);
      expect((await post(payload, sign(payload))).statusCode).toBe(200);
    });

    it('asks Stripe to send the event again later when Stripe cannot be asked about it', async () => {
      const { attempt, intent } = await pendingTopUp('pm_card_visa');
      const payload = fake.eventJson('payment_intent.succeeded', intent.id);
      // The SDK's own retries get the same failure.
      fake.failNext(500, 3);
      expectApiError(await post(payload, sign(payload)), 503, 'PAYMENT_GATEWAY_UNAVAILABLE');
      expect((await attemptById(attempt.id)).status).toBe('pending');
      const again = await post(payload, sign(payload));
      expect(again.statusCode, again.body).toBe(200);
      expect((await attemptById(attempt.id)).status).toBe('succeeded');
    });

    it('is in the API reference, signed and without a session', async () => {
      const document = t.app.swagger() as {
        paths: Record<string, Record<string, { summary?: string; tags?: string[]; requestBody?: unknown }>>;
        tags: { name: string }[];
      };
      const operation = document.paths[WEBHOOK]?.post;
      expect(operation?.summary).toMatch(/Stripe-Signature/);
      expect(operation?.tags).toEqual(['Payments']);
      expect(document.tags.map((tag) => tag.name)).toContain('Payments');
      expect(operation?.requestBody).toBeDefined();
    });
  });
});
