import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/client.ts';
import { portalFetch } from '../src/http/portal-fetch.ts';
import { cardSandboxKeys } from '../src/payments/embedded-card-sandbox.ts';
import {
  CardRefusedError,
  GatewayUnavailableError,
  type ChargeOutcome,
  type PaymentGateway,
} from '../src/payments/payment-gateway.ts';
import { SandboxGateway } from '../src/payments/sandbox-gateway.ts';
import { TEST_ORIGIN, testConfig } from './fixtures.ts';
import { useTestApp } from './helper.ts';

/*
 * The sandbox gateway adapter against the sandbox the portal hosts at /card-sandbox (card data
 * posted to the tokeniser as the browser does), and against gateways that do not answer.
 */

const CARDS = {
  visa: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  expired: '4000000000000069',
  jcb: '3530111333300000',
};
const NEXT_YEAR = new Date().getUTCFullYear() + 1;

/** A token for a card, from the tokeniser the gateway names, as the browser's card form gets it. */
async function tokenize(app: FastifyInstance, gateway: PaymentGateway, number: string): Promise<string> {
  const { tokenizeUrl, publicKey } = gateway.clientConfiguration();
  const response = await app.inject({
    method: 'POST',
    url: new URL(tokenizeUrl ?? '', TEST_ORIGIN).pathname,
    headers: {
      authorization: `Bearer ${publicKey}`,
      'content-type': 'application/json',
      origin: TEST_ORIGIN,
    },
    payload: { number, expMonth: 12, expYear: NEXT_YEAR, cvc: '123', name: 'Ann Lee' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ id: string }>().id;
}

/** The sandbox's own record of the charges of an idempotency key. */
async function sandboxCharges(app: FastifyInstance, gateway: SandboxGateway, idempotencyKey: string) {
  const response = await app.inject({
    method: 'GET',
    url: `/card-sandbox/v1/charges?idempotencyKey=${encodeURIComponent(idempotencyKey)}`,
    headers: { authorization: `Bearer ${gateway.secretKey}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { id: string; status: string }[] }>().data;
}

let keys = 0;
const newKey = () => `attempt-${process.pid}-${(keys += 1)}`;

describe('the sandbox gateway the portal hosts', () => {
  const t = useTestApp();
  const gateway = () => t.app.paymentGateway as SandboxGateway;
  const chargeToken = async (number: string, idempotencyKey = newKey()) =>
    gateway().charge({
      amountCents: 1500,
      idempotencyKey,
      description: 'Top-up',
      source: { token: await tokenize(t.app, gateway(), number) },
    });

  it("tells the browser the sandbox's public key and its tokeniser on the portal's origin", () => {
    expect(gateway()).toBeInstanceOf(SandboxGateway);
    expect(gateway().clientConfiguration()).toEqual({
      provider: 'sandbox',
      publicKey: expect.stringMatching(/^pk_sandbox_[\w-]{40,}$/),
      siteSubdomain: 'sandbox',
      tokenizeUrl: '/card-sandbox/v1/tokens',
    });
  });

  it('generates its keys once into the data dir', () => {
    if (t.config.payments.provider !== 'sandbox') throw new Error('not the sandbox');
    const keysNow = cardSandboxKeys(t.config, t.config.payments.cardSandbox);
    expect(keysNow.secretKey).toMatch(/^sk_sandbox_/);
    expect(keysNow.publishableKey).toBe(gateway().clientConfiguration().publicKey);
    expect(keysNow.secretKey).toBe(gateway().secretKey);
    expect(fs.readdirSync(t.config.dataDir)).toEqual(
      expect.arrayContaining(['card-sandbox-secret-key', 'card-sandbox-publishable-key']),
    );
    expect(cardSandboxKeys(t.config, t.config.payments.cardSandbox)).toEqual(keysNow);
  });

  it('keeps its records in the card_sandbox schema of the portal database', async () => {
    await chargeToken(CARDS.visa);
    const pglite = t.database.pglite;
    const rows = pglite
      ? (
          await pglite.query<{ table_name: string }>(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'card_sandbox' ORDER BY table_name",
          )
        ).rows
      : (
          await t.database.pool!.query<{ table_name: string }>(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'card_sandbox' ORDER BY table_name",
          )
        ).rows;
    expect(rows.map((row) => row.table_name)).toEqual(['charges', 'customers', 'payment_methods', 'tokens']);
  });

  it('is not the portal API: unknown paths are JSON 404s, and its routes are not in the API reference', async () => {
    const missing = await t.app.inject({
      method: 'GET',
      url: '/card-sandbox/v1/nothing',
      headers: { accept: 'text/html' },
    });
    expect(missing.statusCode).toBe(404);
    expect(String(missing.headers['content-type'])).toMatch(/^application\/json/);
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{ paths: object }>();
    expect(Object.keys(document.paths).filter((route) => route.startsWith('/card-sandbox'))).toEqual([]);
  });

  it('charges a token once per idempotency key, answering the first outcome again', async () => {
    const idempotencyKey = newKey();
    const token = await tokenize(t.app, gateway(), CARDS.visa);
    const request = {
      amountCents: 2599,
      idempotencyKey,
      description: 'Invoice INV-000000042',
      source: { token },
    };
    const first = await gateway().charge(request);
    expect(first).toEqual({
      outcome: 'succeeded',
      chargeRef: expect.stringMatching(/^ch_/),
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: NEXT_YEAR },
    });
    expect(await gateway().charge(request)).toEqual(first);
    expect(await sandboxCharges(t.app, gateway(), idempotencyKey)).toHaveLength(1);
  });

  it.each([
    [CARDS.declined, 'card_declined', 'Your card was declined.'],
    [CARDS.insufficientFunds, 'insufficient_funds', 'Your card has insufficient funds.'],
    [CARDS.expired, 'expired_card', 'Your card has expired.'],
  ])('answers the refusal of %s as %s', async (number, refusal, message) => {
    expect(await chargeToken(number)).toEqual({ outcome: 'refused', refusal, message });
  });

  it('charges a JCB card and says so: refusing the brand is the portal’s business', async () => {
    const outcome = await chargeToken(CARDS.jcb);
    expect(outcome).toMatchObject({ outcome: 'succeeded', card: { brand: 'jcb', last4: '0000' } });
  });

  it('reads the card of a token without using it, for the portal to check its brand first', async () => {
    const token = await tokenize(t.app, gateway(), CARDS.jcb);
    expect(await gateway().tokenCard(token)).toEqual({
      brand: 'jcb',
      last4: '0000',
      expMonth: 12,
      expYear: NEXT_YEAR,
    });
    const charged = await gateway().charge({
      amountCents: 100,
      idempotencyKey: newKey(),
      description: 'Top-up',
      source: { token },
    });
    expect(charged).toMatchObject({ outcome: 'succeeded' });
    // A used token is still read: whether it can be used is the save's or the charge's to say.
    expect((await gateway().tokenCard(token)).brand).toBe('jcb');
    await expect(gateway().tokenCard('tok_never_issued')).rejects.toMatchObject({
      name: 'CardRefusedError',
      refusal: 'invalid_token',
    });
  });

  it('answers a used token as a refusal (invalid_token), never as a failure', async () => {
    const token = await tokenize(t.app, gateway(), CARDS.visa);
    await gateway().charge({
      amountCents: 100,
      idempotencyKey: newKey(),
      description: 'Top-up',
      source: { token },
    });
    const again = await gateway().charge({
      amountCents: 100,
      idempotencyKey: newKey(),
      description: 'Top-up',
      source: { token },
    });
    expect(again).toMatchObject({ outcome: 'refused', refusal: 'invalid_token' });
  });

  it('saves cards under one customer, charges them, and forgets them', async () => {
    const first = await gateway().saveCard({
      token: await tokenize(t.app, gateway(), CARDS.visa),
      customerRef: null,
      organizationId: 'org-1',
    });
    expect(first).toEqual({
      customerRef: expect.stringMatching(/^cus_/),
      card: {
        paymentMethodRef: expect.stringMatching(/^pm_/),
        brand: 'visa',
        last4: '4242',
        expMonth: 12,
        expYear: NEXT_YEAR,
      },
    });
    const second = await gateway().saveCard({
      token: await tokenize(t.app, gateway(), CARDS.insufficientFunds),
      customerRef: first.customerRef,
      organizationId: 'org-1',
    });
    expect(second.customerRef).toBe(first.customerRef);

    const saved = (paymentMethodRef: string) => ({ paymentMethodRef, customerRef: first.customerRef });
    const charge = (paymentMethodRef: string) =>
      gateway().charge({
        amountCents: 700,
        idempotencyKey: newKey(),
        description: 'Top-up',
        source: saved(paymentMethodRef),
      });
    expect(await charge(first.card.paymentMethodRef)).toMatchObject({ outcome: 'succeeded' });
    expect(await charge(second.card.paymentMethodRef)).toMatchObject({
      outcome: 'refused',
      refusal: 'insufficient_funds',
    });

    await gateway().removeCard(first.card.paymentMethodRef);
    // Forgetting it again is no error: the gateway no longer knows it.
    await gateway().removeCard(first.card.paymentMethodRef);
    expect(await charge(first.card.paymentMethodRef)).toMatchObject({
      outcome: 'refused',
      refusal: 'invalid_token',
    });
  });

  it('refuses to save the always-declined card and a used token with CardRefusedError', async () => {
    const declined = gateway().saveCard({
      token: await tokenize(t.app, gateway(), CARDS.declined),
      customerRef: null,
      organizationId: 'org-2',
    });
    await expect(declined).rejects.toThrow(CardRefusedError);
    await expect(declined).rejects.toMatchObject({
      refusal: 'card_declined',
      message: 'Your card was declined.',
    });

    const token = await tokenize(t.app, gateway(), CARDS.visa);
    await gateway().saveCard({ token, customerRef: null, organizationId: 'org-2' });
    await expect(
      gateway().saveCard({ token, customerRef: null, organizationId: 'org-2' }),
    ).rejects.toMatchObject({
      name: 'CardRefusedError',
      refusal: 'invalid_token',
    });
  });

  it('makes the customer again when the gateway no longer knows it', async () => {
    const saved = await gateway().saveCard({
      token: await tokenize(t.app, gateway(), CARDS.visa),
      customerRef: 'cus_forgotten',
      organizationId: 'org-3',
    });
    expect(saved.customerRef).toMatch(/^cus_(?!forgotten)/);
  });

  it('charges once for 50 concurrent attempts with one idempotency key, all told the same outcome', async () => {
    const idempotencyKey = newKey();
    const token = await tokenize(t.app, gateway(), CARDS.visa);
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () =>
        gateway().charge({ amountCents: 4200, idempotencyKey, description: 'Invoice', source: { token } }),
      ),
    );
    expect(new Set(outcomes.map((outcome) => JSON.stringify(outcome))).size).toBe(1);
    expect(outcomes[0]).toMatchObject({ outcome: 'succeeded' });
    expect(await sandboxCharges(t.app, gateway(), idempotencyKey)).toHaveLength(1);
  });

  it('charges a token once when attempts with different keys race for it', async () => {
    const token = await tokenize(t.app, gateway(), CARDS.visa);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        gateway().charge({
          amountCents: 300,
          idempotencyKey: newKey(),
          description: 'Top-up',
          source: { token },
        }),
      ),
    );
    const kinds = outcomes.map((outcome) =>
      outcome.outcome === 'succeeded' ? 'succeeded' : outcome.refusal,
    );
    expect(kinds.sort()).toEqual([...Array<string>(19).fill('invalid_token'), 'succeeded']);
  });

  it('throws a plain error, not an unknown outcome, when the portal itself is wrong', async () => {
    const wrongKey = new SandboxGateway({
      baseUrl: `${TEST_ORIGIN}/card-sandbox`,
      tokenizeUrl: '/card-sandbox/v1/tokens',
      publishableKey: 'pk_sandbox_x',
      secretKey: 'sk_sandbox_not_the_key',
      fetch: portalFetch(t.app, TEST_ORIGIN),
    });
    const token = await tokenize(t.app, gateway(), CARDS.visa);
    const charging = wrongKey.charge({
      amountCents: 100,
      idempotencyKey: newKey(),
      description: 'x',
      source: { token },
    });
    await expect(charging).rejects.toThrow(/401 unauthorized/);
    await expect(charging).rejects.not.toBeInstanceOf(GatewayUnavailableError);

    const idempotencyKey = newKey();
    await gateway().charge({ amountCents: 100, idempotencyKey, description: 'x', source: { token } });
    const reused = gateway().charge({
      amountCents: 101,
      idempotencyKey,
      description: 'x',
      source: { token },
    });
    await expect(reused).rejects.toThrow(/409 idempotency_key_reused/);
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A local stand-in for a gateway, answering each request with `handler`. */
async function standIn(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const sandboxAt = (baseUrl: string, timeoutMs?: number) =>
  new SandboxGateway({
    baseUrl,
    tokenizeUrl: `${baseUrl}/v1/tokens`,
    publishableKey: 'pk_sandbox_stand_in_0000000000',
    secretKey: 'sk_sandbox_stand_in_0000000000',
    ...(timeoutMs ? { timeoutMs } : {}),
  });

/** A charge of a token the gateway never made, for gateways that do not answer anyway. */
const unknownCharge = () => ({
  amountCents: 100,
  idempotencyKey: newKey(),
  description: 'x',
  source: { token: 'tok_x' },
});

/** Every call the adapter makes, each expected to leave the outcome unknown. */
async function expectEveryCallUnavailable(gateway: SandboxGateway) {
  const calls: (() => Promise<unknown>)[] = [
    () => gateway.charge(unknownCharge()),
    () => gateway.saveCard({ token: 'tok_x', customerRef: 'cus_x', organizationId: 'org' }),
    () => gateway.removeCard('pm_x'),
  ];
  for (const call of calls) await expect(call()).rejects.toBeInstanceOf(GatewayUnavailableError);
}

describe('a gateway that does not answer: the outcome is unknown (GatewayUnavailableError)', () => {
  it('on a closed port', async () => {
    await expectEveryCallUnavailable(sandboxAt(`http://127.0.0.1:${await closedPort()}/card-sandbox`));
  });

  it('on a 5xx', async () => {
    const url = await standIn((_request, response) => {
      response
        .writeHead(503, { 'content-type': 'application/json' })
        .end('{"error":{"code":"api_error","message":"down"}}');
    });
    await expectEveryCallUnavailable(sandboxAt(url));
  });

  it('on an answer that is not JSON, or a success it cannot read', async () => {
    const notJson = await standIn((_request, response) => response.writeHead(200).end('<html>proxy</html>'));
    await expectEveryCallUnavailable(sandboxAt(notJson));
    const unreadable = await standIn((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"ch_1","status":"pending"}');
    });
    const charging = sandboxAt(unreadable).charge(unknownCharge());
    await expect(charging).rejects.toBeInstanceOf(GatewayUnavailableError);
  });

  it('past its time-out', async () => {
    const silent = await standIn(() => undefined);
    const charging = sandboxAt(silent, 200).charge(unknownCharge());
    await expect(charging).rejects.toBeInstanceOf(GatewayUnavailableError);
  });
});

describe('CARD_SANDBOX_URL: a sandbox elsewhere', () => {
  const t = useTestApp({
    CARD_SANDBOX_URL: 'http://127.0.0.1:9/card-sandbox/',
    CARD_SANDBOX_SECRET_KEY: 'sk_sandbox_remote_0123456789abcdef',
    CARD_SANDBOX_PUBLISHABLE_KEY: 'pk_sandbox_remote_0123456789abcdef',
  });

  it('is not hosted, and the browser and the server are sent to it with its keys', async () => {
    expect((await t.app.inject({ method: 'OPTIONS', url: '/card-sandbox/v1/tokens' })).statusCode).toBe(404);
    expect(t.app.paymentGateway.clientConfiguration()).toEqual({
      provider: 'sandbox',
      publicKey: 'pk_sandbox_remote_0123456789abcdef',
      siteSubdomain: 'sandbox',
      tokenizeUrl: 'http://127.0.0.1:9/card-sandbox/v1/tokens',
    });
    const page = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(String(page.headers['content-security-policy'])).toMatch(
      /connect-src 'self' http:\/\/127\.0\.0\.1:9(;|$)/,
    );
    // Nothing listens there: the outcome of a charge is unknown.
    const outcome: Promise<ChargeOutcome> = t.app.paymentGateway.charge(unknownCharge());
    await expect(outcome).rejects.toBeInstanceOf(GatewayUnavailableError);
  });
});

describe('a restart of the portal', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-sandbox-restart-'));
  const config = testConfig(dataDir);
  let running: { app: FastifyInstance; close(): Promise<void> } | undefined;
  async function start() {
    const database = await openDatabase({ databaseUrl: undefined, dataDir });
    const app = await buildApp({ config, database });
    await app.ready();
    running = {
      app,
      close: async () => {
        await app.close();
        await database.close();
        running = undefined;
      },
    };
    return running;
  }
  afterAll(async () => {
    await running?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps the sandbox's charges and keys: asking again with the key answers the charge made", async () => {
    const before = await start();
    const gateway = before.app.paymentGateway;
    const request = {
      amountCents: 9900,
      idempotencyKey: newKey(),
      description: 'Top-up',
      source: { token: await tokenize(before.app, gateway, CARDS.visa) },
    };
    const charged = await gateway.charge(request);
    expect(charged.outcome).toBe('succeeded');
    await before.close();

    const after = await start();
    expect(after.app.paymentGateway.clientConfiguration()).toEqual(gateway.clientConfiguration());
    expect(await after.app.paymentGateway.charge(request)).toEqual(charged);
    expect(
      await sandboxCharges(after.app, after.app.paymentGateway as SandboxGateway, request.idempotencyKey),
    ).toHaveLength(1);
  });
});
