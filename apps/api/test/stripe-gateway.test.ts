import { afterAll, describe, expect, it } from 'vitest';
import {
  CardRefusedError,
  GatewayUnavailableError,
  type ChargeRequest,
} from '../src/payments/payment-gateway.ts';
import { ATTEMPT_KEY_METADATA, StripeGateway } from '../src/payments/stripe-gateway.ts';
import { startStripeFake } from './stripe-fake.ts';

/*
 * The Stripe gateway against a local stand-in for Stripe's API (stripe-fake.ts) that answers in
 * Stripe's shapes.
 */

const PUBLISHABLE_KEY = 'pk_test_portal0123456789';
const WEBHOOK_SECRET = 'whsec_portal0123456789abcdef';
const fake = await startStripeFake();
afterAll(() => fake.close());

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
