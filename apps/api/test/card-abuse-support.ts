import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db, Executor } from '../src/db/client.ts';
import { monthlyRunService } from '../src/modules/billing/monthly-run.service.ts';
import * as schema from '../src/db/schema.ts';
import { newApplicationWithUsage } from './billing-fixtures.ts';
import { sandboxCardToken } from './card-fixtures.ts';
import { jsonRequest, setUpOrganization } from './helper.ts';

/** Sandbox test cards (docs/payments.md) and numbers of the brands the portal does not take. */
export const CARDS = {
  visa: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  jcb: '3530111333300000',
  diners: '36227206271667',
  unionpay: '6200000000000005',
  unknown: '9000000000000001',
};

/** Someone who may pay for their organisation, and the address their requests come from. */
export interface Payer {
  cookie: string;
  organizationId: string;
  memberId: string;
  ip: string;
}

let addresses = 0;
/** A client address no other test uses, so that each test counts its own attempts per IP. */
export function freshIp(): string {
  addresses += 1;
  return `198.51.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
}

export async function newPayer(app: FastifyInstance, email: string, ip = freshIp()): Promise<Payer> {
  const cookie = await setUpOrganization(app, email);
  const me = await app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
  const { organizationId, memberId } = me.json() as { organizationId: string; memberId: string };
  return { cookie, organizationId, memberId, ip };
}

/** A card request as the payer's browser sends it, from the payer's address. */
export function cardRequest(app: FastifyInstance, payer: Payer, method: 'POST', url: string, body: unknown) {
  return app.inject({ ...jsonRequest(method, url, body, payer.cookie), remoteAddress: payer.ip });
}

export async function saveCard(app: FastifyInstance, payer: Payer, number: string) {
  const token = await sandboxCardToken(app, payer.cookie, number);
  return cardRequest(app, payer, 'POST', '/api/v1/accounts/payment-profiles', { token });
}

/** A top-up of USD 1 with a new card (`number`) or a saved one (`{ paymentProfileId }`). */
export async function topUp(app: FastifyInstance, payer: Payer, card: string | { paymentProfileId: string }) {
  const source = typeof card === 'string' ? { token: await sandboxCardToken(app, payer.cookie, card) } : card;
  return cardRequest(app, payer, 'POST', '/api/v1/accounts/topup', { amount: 1, ...source });
}

/** May 2025's invoice for the organisation (USD 14.00 for one application), from a billing run. */
export async function billMay2025(db: Db, organizationId: string) {
  await newApplicationWithUsage(db, organizationId, { plan: 'max', billingCycle: '2025-05', mau: 100 });
  return monthlyRunService({ db, productName: 'Social' }).runMonthlyBilling({
    cycle: '2025-05',
    organizationId,
  });
}

/** The organisation's card attempts, oldest first. */
export async function cardAttemptsOf(db: Executor, organizationId: string) {
  return db
    .select()
    .from(schema.cardAttempt)
    .where(eq(schema.cardAttempt.organizationId, organizationId))
    .orderBy(schema.cardAttempt.createdAt, schema.cardAttempt.id);
}

/** The 429 of the card-attempt limits: its Retry-After, in seconds. */
export function expectLimited(response: {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}) {
  expect(response.statusCode, response.body).toBe(429);
  expect(JSON.parse(response.body)).toMatchObject({ code: 'RATE_LIMITED' });
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(600);
  return retryAfter;
}
