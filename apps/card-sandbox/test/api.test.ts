import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NEXT_YEAR,
  PUBLISHABLE_KEY,
  browser,
  chargeRequest,
  chargesOf,
  createCustomer,
  savePaymentMethod,
  server,
  startSandbox,
  tokenFor,
  openTestDatabase,
  tokenRequest,
  type Sandbox,
  type TestDatabase,
} from './helper.ts';

describe('the card sandbox', () => {
  let database: TestDatabase;
  let sandbox: Sandbox;
  beforeAll(async () => {
    database = openTestDatabase();
    sandbox = await startSandbox(database);
  });
  afterAll(async () => {
    await sandbox?.close();
    await database?.drop();
  });
  let keys = 0;
  const newKey = () => `key-${Date.now()}-${(keys += 1)}`;

  describe('tokens (the browser, with the publishable key)', () => {
    it('tokenises a card and keeps only brand, last 4, expiry and behaviour', async () => {
      const response = await tokenRequest(sandbox.app, {
        number: '4242 4242 4242 4242',
        expMonth: '07',
        name: 'Ann Lee',
      });
      expect(response.statusCode, response.body).toBe(200);
      const token = response.json<{ id: string }>();
      expect(token).toEqual({
        id: expect.stringMatching(/^tok_[0-9a-f]{32}$/),
        card: { brand: 'visa', last4: '4242', expMonth: 7, expYear: NEXT_YEAR },
      });
      const [row] = (await sandbox.sql('SELECT * FROM card_sandbox.tokens WHERE id = $1', [
        token.id,
      ])) as Record<string, unknown>[];
      expect(row).toMatchObject({ brand: 'visa', last4: '4242', behaviour: 'none', used_at: null });
      expect(JSON.stringify(row)).not.toContain('42424242');
      expect(JSON.stringify(row)).not.toContain('Ann Lee');
    });

    it("lets the merchant server read a token's card, without using it, with the secret key only", async () => {
      const token = await tokenFor(sandbox.app, '3530 1113 3330 0000');
      const read = (headers: Record<string, string>, id = token) =>
        sandbox.app.inject({ method: 'GET', url: `/card-sandbox/v1/tokens/${id}`, headers });
      const answer = await read(server);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toEqual({
        id: token,
        card: { brand: 'jcb', last4: '0000', expMonth: 12, expYear: NEXT_YEAR },
      });
      expect((await read(browser)).statusCode).toBe(401);
      expect((await read(server, 'tok_unknown')).json()).toMatchObject({
        error: { code: 'resource_missing' },
      });
      const [row] = (await sandbox.sql('SELECT used_at FROM card_sandbox.tokens WHERE id = $1', [token])) as {
        used_at: unknown;
      }[];
      expect(row?.used_at).toBeNull();
    });

    it('reports JCB and the other brands it cannot refuse itself', async () => {
      const jcb = await tokenRequest(sandbox.app, { number: '3530 1113 3330 0000' });
      expect(jcb.json()).toMatchObject({ card: { brand: 'jcb', last4: '0000' } });
      const amex = await tokenRequest(sandbox.app, { number: '3782 822463 10005', cvc: '1234' });
      expect(amex.json()).toMatchObject({ card: { brand: 'american_express', last4: '0005' } });
    });

    it("answers 400 with each field's error", async () => {
      const response = await tokenRequest(sandbox.app, {
        number: '4242 4242 4242 4241',
        expMonth: 1,
        expYear: new Date().getUTCFullYear() - 1,
        cvc: '12',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        errors: [
          { field: 'number', message: 'Your card number is invalid.' },
          { field: 'expYear', message: 'Your card has expired.' },
          { field: 'cvc', message: "Your card's security code is invalid." },
        ],
      });
      const empty = await sandbox.app.inject({
        method: 'POST',
        url: '/card-sandbox/v1/tokens',
        headers: browser,
      });
      expect(empty.statusCode).toBe(400);
      expect(empty.json<{ errors: { field: string }[] }>().errors.map((error) => error.field)).toEqual([
        'number',
        'expMonth',
        'expYear',
        'cvc',
      ]);
    });

    it('takes only the publishable key', async () => {
      for (const headers of [{}, { authorization: 'Bearer pk_sandbox_other' }, server]) {
        const response = await tokenRequest(sandbox.app, { number: '4242424242424242' }, headers);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toMatchObject({ error: { code: 'unauthorized' } });
      }
    });

    it('may be called from any origin, as its key is public', async () => {
      const preflight = await sandbox.app.inject({
        method: 'OPTIONS',
        url: '/card-sandbox/v1/tokens',
        headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers['access-control-allow-headers']).toContain('authorization');
      const refused = await tokenRequest(sandbox.app, { number: '4242' });
      expect(refused.headers['access-control-allow-origin']).toBe('*');
    });
  });

  describe('the merchant API (the server, with the secret key)', () => {
    it('refuses the publishable key, another key and none', async () => {
      const token = await tokenFor(sandbox.app, '4242424242424242');
      for (const authorization of [`Bearer ${PUBLISHABLE_KEY}`, 'Bearer sk_sandbox_other', undefined]) {
        const headers = authorization ? { authorization } : {};
        const requests = [
          sandbox.app.inject({ method: 'POST', url: '/card-sandbox/v1/customers', headers, payload: {} }),
          sandbox.app.inject({ method: 'GET', url: '/card-sandbox/v1/charges', headers }),
          sandbox.app.inject({ method: 'DELETE', url: '/card-sandbox/v1/payment-methods/pm_x', headers }),
          sandbox.app.inject({
            method: 'POST',
            url: '/card-sandbox/v1/charges',
            headers: { ...headers, 'idempotency-key': newKey() },
            payload: { amountCents: 100, currency: 'usd', source: { token } },
          }),
        ];
        for (const response of await Promise.all(requests)) {
          expect(response.statusCode, response.body).toBe(401);
          expect(response.json()).toMatchObject({ error: { code: 'unauthorized' } });
        }
      }
      // The refused calls used nothing: the token still charges.
      const charged = await chargeRequest(sandbox.app, newKey(), { source: { token } });
      expect(charged.statusCode).toBe(200);
    });

    it('saves a card under a customer, using up its token', async () => {
      const customer = await createCustomer(sandbox.app);
      expect(customer).toMatch(/^cus_/);
      const token = await tokenFor(sandbox.app, '5555 5555 5555 4444');
      const saved = await savePaymentMethod(sandbox.app, token, customer);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual({
        id: expect.stringMatching(/^pm_/),
        customer,
        card: { brand: 'master', last4: '4444', expMonth: 12, expYear: NEXT_YEAR },
      });
      const again = await savePaymentMethod(sandbox.app, token, customer);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ error: { code: 'invalid_token' } });
    });

    it('refuses to save the always-declined card (a $0 verification), and uses up its token', async () => {
      const customer = await createCustomer(sandbox.app);
      const token = await tokenFor(sandbox.app, '4000000000000002');
      const refused = await savePaymentMethod(sandbox.app, token, customer);
      expect(refused.statusCode).toBe(402);
      expect(refused.json()).toEqual({
        error: { code: 'card_declined', message: 'Your card was declined.' },
      });
      expect((await savePaymentMethod(sandbox.app, token, customer)).json()).toMatchObject({
        error: { code: 'invalid_token' },
      });
    });

    it('saves the cards that are refused only when charged', async () => {
      const customer = await createCustomer(sandbox.app);
      for (const number of ['4000000000009995', '4000000000000069', '3530111333300000']) {
        const saved = await savePaymentMethod(sandbox.app, await tokenFor(sandbox.app, number), customer);
        expect(saved.statusCode, number).toBe(200);
      }
    });

    it('refuses an unknown customer or token without using the token', async () => {
      const token = await tokenFor(sandbox.app, '4242424242424242');
      const noCustomer = await savePaymentMethod(sandbox.app, token, 'cus_unknown');
      expect(noCustomer.statusCode).toBe(400);
      expect(noCustomer.json()).toMatchObject({ error: { code: 'resource_missing', param: 'customer' } });
      const customer = await createCustomer(sandbox.app);
      const noToken = await savePaymentMethod(sandbox.app, 'tok_unknown', customer);
      expect(noToken.json()).toMatchObject({ error: { code: 'invalid_token' } });
      expect((await savePaymentMethod(sandbox.app, token, customer)).statusCode).toBe(200);
    });

    it('refuses a token after its 10 minutes', async () => {
      const token = await tokenFor(sandbox.app, '4242424242424242');
      const [row] = (await sandbox.sql(
        'SELECT created_at, expires_at FROM card_sandbox.tokens WHERE id = $1',
        [token],
      )) as { created_at: Date; expires_at: Date }[];
      expect(row!.expires_at.getTime() - row!.created_at.getTime()).toBe(10 * 60 * 1000);
      await sandbox.sql(
        "UPDATE card_sandbox.tokens SET expires_at = now() - interval '1 second' WHERE id = $1",
        [token],
      );
      const charged = await chargeRequest(sandbox.app, newKey(), { source: { token } });
      expect(charged.statusCode).toBe(400);
      expect(charged.json()).toMatchObject({ error: { code: 'invalid_token', param: 'source.token' } });
      const customer = await createCustomer(sandbox.app);
      expect((await savePaymentMethod(sandbox.app, token, customer)).json()).toMatchObject({
        error: { code: 'invalid_token' },
      });
    });

    it('removes a saved card, which then cannot be charged; an unknown one is 404', async () => {
      const customer = await createCustomer(sandbox.app);
      const saved = await savePaymentMethod(
        sandbox.app,
        await tokenFor(sandbox.app, '4242424242424242'),
        customer,
      );
      const { id } = saved.json<{ id: string }>();
      const remove = () =>
        sandbox.app.inject({
          method: 'DELETE',
          url: `/card-sandbox/v1/payment-methods/${id}`,
          headers: server,
        });
      expect((await remove()).json()).toEqual({ id, deleted: true });
      expect((await remove()).statusCode).toBe(404);
      const charged = await chargeRequest(sandbox.app, newKey(), { source: { paymentMethod: id, customer } });
      expect(charged.statusCode).toBe(400);
      expect(charged.json()).toMatchObject({ error: { code: 'resource_missing' } });
    });
  });

  describe('charges', () => {
    it('charges a token and keeps the charge', async () => {
      const key = newKey();
      const token = await tokenFor(sandbox.app, '4242424242424242');
      const response = await chargeRequest(sandbox.app, key, { amountCents: 123_456, source: { token } });
      expect(response.statusCode, response.body).toBe(200);
      const charge = response.json<{ id: string }>();
      expect(charge).toEqual({
        id: expect.stringMatching(/^ch_/),
        status: 'succeeded',
        amountCents: 123_456,
        currency: 'usd',
        description: 'Top-up',
        card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: NEXT_YEAR },
        created: expect.any(String),
      });
      expect(await chargesOf(sandbox.app, key)).toEqual([
        {
          id: charge.id,
          idempotencyKey: key,
          status: 'succeeded',
          amountCents: 123_456,
          currency: 'usd',
          description: 'Top-up',
          source: { token },
          card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: NEXT_YEAR },
          failureCode: null,
          failureMessage: null,
          created: expect.any(String),
        },
      ]);
    });

    it('charges a saved card of its customer only', async () => {
      const customer = await createCustomer(sandbox.app);
      const saved = await savePaymentMethod(
        sandbox.app,
        await tokenFor(sandbox.app, '6011111111111117'),
        customer,
      );
      const paymentMethod = saved.json<{ id: string }>().id;
      const first = await chargeRequest(sandbox.app, newKey(), { source: { paymentMethod, customer } });
      expect(first.json()).toMatchObject({ status: 'succeeded', card: { brand: 'discover', last4: '1117' } });
      const second = await chargeRequest(sandbox.app, newKey(), { source: { paymentMethod, customer } });
      expect(second.statusCode).toBe(200);
      const other = await createCustomer(sandbox.app);
      const foreign = await chargeRequest(sandbox.app, newKey(), {
        source: { paymentMethod, customer: other },
      });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json()).toMatchObject({ error: { code: 'resource_missing' } });
    });

    it.each([
      ['4000000000000002', 'card_declined', 'Your card was declined.'],
      ['4000000000009995', 'insufficient_funds', 'Your card has insufficient funds.'],
      ['4000000000000069', 'expired_card', 'Your card has expired.'],
    ])('refuses %s with 402 %s, and records the failed charge', async (number, code, message) => {
      const key = newKey();
      const response = await chargeRequest(sandbox.app, key, {
        source: { token: await tokenFor(sandbox.app, number) },
      });
      expect(response.statusCode).toBe(402);
      expect(response.json()).toEqual({ error: { code, message, charge: expect.stringMatching(/^ch_/) } });
      expect(await chargesOf(sandbox.app, key)).toMatchObject([
        { status: 'failed', failureCode: code, failureMessage: message },
      ]);
    });

    it('refuses a saved card whose expiry month has ended since', async () => {
      const customer = await createCustomer(sandbox.app);
      const saved = await savePaymentMethod(
        sandbox.app,
        await tokenFor(sandbox.app, '4242424242424242'),
        customer,
      );
      const paymentMethod = saved.json<{ id: string }>().id;
      await sandbox.sql('UPDATE card_sandbox.payment_methods SET exp_year = $2 WHERE id = $1', [
        paymentMethod,
        new Date().getUTCFullYear() - 1,
      ]);
      const response = await chargeRequest(sandbox.app, newKey(), { source: { paymentMethod, customer } });
      expect(response.statusCode).toBe(402);
      expect(response.json()).toMatchObject({ error: { code: 'expired_card' } });
    });

    it('answers a repeated idempotency key with the stored answer, after the token is used, and charges once', async () => {
      const key = newKey();
      const token = await tokenFor(sandbox.app, '4242424242424242');
      const first = await chargeRequest(sandbox.app, key, { source: { token } });
      const again = await chargeRequest(sandbox.app, key, { source: { token } });
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(first.body);
      expect(await chargesOf(sandbox.app, key)).toHaveLength(1);

      const declinedKey = newKey();
      const declined = await tokenFor(sandbox.app, '4000000000009995');
      const refused = await chargeRequest(sandbox.app, declinedKey, { source: { token: declined } });
      const refusedAgain = await chargeRequest(sandbox.app, declinedKey, { source: { token: declined } });
      expect([refusedAgain.statusCode, refusedAgain.body]).toEqual([402, refused.body]);
    });

    it('refuses the same key with another amount or card (409) and changes nothing', async () => {
      const key = newKey();
      const token = await tokenFor(sandbox.app, '4242424242424242');
      await chargeRequest(sandbox.app, key, { amountCents: 500, source: { token } });
      const otherAmount = await chargeRequest(sandbox.app, key, { amountCents: 501, source: { token } });
      expect(otherAmount.statusCode).toBe(409);
      expect(otherAmount.json()).toMatchObject({ error: { code: 'idempotency_key_reused' } });
      const otherCard = await tokenFor(sandbox.app, '4242424242424242');
      const otherSource = await chargeRequest(sandbox.app, key, {
        amountCents: 500,
        source: { token: otherCard },
      });
      expect(otherSource.statusCode).toBe(409);
      expect(await chargesOf(sandbox.app, key)).toMatchObject([{ amountCents: 500 }]);
      // The other card's token was not used.
      expect((await chargeRequest(sandbox.app, newKey(), { source: { token: otherCard } })).statusCode).toBe(
        200,
      );
    });

    it('leaves the key free when the token is unknown, so nothing is recorded', async () => {
      const key = newKey();
      const unknown = await chargeRequest(sandbox.app, key, { source: { token: 'tok_unknown' } });
      expect(unknown.statusCode).toBe(400);
      expect(await chargesOf(sandbox.app, key)).toEqual([]);
      const token = await tokenFor(sandbox.app, '4242424242424242');
      expect((await chargeRequest(sandbox.app, key, { source: { token } })).statusCode).toBe(200);
    });

    it('charges once for 50 concurrent requests with one key, all answered alike', async () => {
      const key = newKey();
      const token = await tokenFor(sandbox.app, '4242424242424242');
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => chargeRequest(sandbox.app, key, { source: { token } })),
      );
      expect(new Set(answers.map((answer) => `${answer.statusCode} ${answer.body}`)).size).toBe(1);
      expect(answers[0]!.statusCode).toBe(200);
      const rows = await sandbox.sql('SELECT id FROM card_sandbox.charges WHERE idempotency_key = $1', [key]);
      expect(rows).toHaveLength(1);
    });

    it('charges a token once when 20 requests with different keys race for it', async () => {
      const token = await tokenFor(sandbox.app, '4242424242424242');
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => chargeRequest(sandbox.app, newKey(), { source: { token } })),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, ...Array(19).fill(400)]);
      const rows = await sandbox.sql(
        "SELECT id FROM card_sandbox.charges WHERE token_id = $1 AND status <> 'pending'",
        [token],
      );
      expect(rows).toHaveLength(1);
    });

    it('refuses a charge without a key, or with a malformed body', async () => {
      const token = await tokenFor(sandbox.app, '4242424242424242');
      const noKey = await chargeRequest(sandbox.app, undefined, { source: { token } });
      expect(noKey.statusCode).toBe(400);
      expect(noKey.json()).toMatchObject({ error: { code: 'idempotency_key_required' } });
      for (const body of [
        { amountCents: 0, source: { token } },
        { amountCents: 10.5, source: { token } },
        { currency: 'eur', source: { token } },
        { source: { token, paymentMethod: 'pm_x', customer: 'cus_x' } },
        { source: { paymentMethod: 'pm_x' } },
        { source: {} },
      ]) {
        const response = await chargeRequest(sandbox.app, newKey(), body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json(), JSON.stringify(body)).toMatchObject({ error: { code: 'invalid_request' } });
      }
      const nul = await chargeRequest(sandbox.app, newKey(), { description: 'a\u0000b', source: { token } });
      expect(nul.statusCode).toBe(400);
      // None of them used the token.
      expect((await chargeRequest(sandbox.app, newKey(), { source: { token } })).statusCode).toBe(200);
    });

    it('lists the newest charges first', async () => {
      const keys = [newKey(), newKey(), newKey()];
      for (const key of keys) {
        await chargeRequest(sandbox.app, key, {
          source: { token: await tokenFor(sandbox.app, '4242424242424242') },
        });
      }
      const listed = (await chargesOf(sandbox.app)).map((charge) => charge.idempotencyKey);
      expect(listed.slice(0, 3)).toEqual([...keys].reverse());
      expect(listed.length).toBeLessThanOrEqual(100);
    });
  });

  it('keeps its charges across a restart: the same key answers the same charge', async () => {
    const key = newKey();
    const token = await tokenFor(sandbox.app, '4242424242424242');
    const first = await chargeRequest(sandbox.app, key, { source: { token } });
    expect(first.statusCode).toBe(200);
    await sandbox.close();
    sandbox = await startSandbox(database);
    const again = await chargeRequest(sandbox.app, key, { source: { token } });
    expect([again.statusCode, again.body]).toEqual([200, first.body]);
    expect(await chargesOf(sandbox.app, key)).toHaveLength(1);
  });
});
