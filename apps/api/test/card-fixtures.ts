import type { PaymentGatewayConfiguration } from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { TEST_ORIGIN, jsonRequest } from './helper.ts';

/** Sandbox cards by what the sandbox gateway does with them. */
export const SANDBOX_CARDS = { visa: '4242424242424242' };

/** Card data to the sandbox's tokeniser of the portal `app`, as the card form sends it; answers the token. */
export async function sandboxCardToken(
  app: FastifyInstance,
  cookie: string,
  number: string,
): Promise<string> {
  const configuration = await app.inject(
    jsonRequest('GET', '/api/v1/accounts/payment-gateway', undefined, cookie),
  );
  expect(configuration.statusCode, configuration.body).toBe(200);
  const { publicKey, tokenizeUrl } = configuration.json() as PaymentGatewayConfiguration;
  const tokenized = await app.inject({
    method: 'POST',
    url: new URL(tokenizeUrl ?? '', TEST_ORIGIN).pathname,
    headers: { authorization: `Bearer ${publicKey}`, 'content-type': 'application/json' },
    payload: { number, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123', name: 'Ann Lee' },
  });
  expect(tokenized.statusCode, tokenized.body).toBe(200);
  return (tokenized.json() as { id: string }).id;
}

/** Saves a sandbox card through the portal `app`, as /manage-payment does. */
export async function addSandboxCard(app: FastifyInstance, cookie: string, number = SANDBOX_CARDS.visa) {
  const token = await sandboxCardToken(app, cookie, number);
  return app.inject(jsonRequest('POST', '/api/v1/accounts/payment-profiles', { token }, cookie));
}

/** Tops up the balance by `amount` USD with a new sandbox card, through the portal `app`. */
export async function topUpWithSandboxCard(app: FastifyInstance, cookie: string, amount: number) {
  const token = await sandboxCardToken(app, cookie, SANDBOX_CARDS.visa);
  return app.inject(jsonRequest('POST', '/api/v1/accounts/topup', { amount, token }, cookie));
}
