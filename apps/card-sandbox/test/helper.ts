import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { createCardSandboxApp, openCardSandboxStore, type SqlExecutor } from '../src/index.ts';

export const PUBLISHABLE_KEY = 'pk_sandbox_for_tests';
export const SECRET_KEY = 'sk_sandbox_for_tests';
export const browser = { authorization: `Bearer ${PUBLISHABLE_KEY}` };
export const server = { authorization: `Bearer ${SECRET_KEY}` };

/** A PGlite directory the sandbox can be opened on again (a restart), and removed afterwards. */
export interface TestDatabase {
  /** A new connection to the same data: what a restarted process opens. */
  connect(): Promise<{ executor: SqlExecutor; close(): Promise<void> }>;
  drop(): Promise<void>;
}

/*
 * The sandbox's tests run on PGlite; on PostgreSQL (a Pool, and rows locked by concurrent
 * requests) the sandbox is tested where the portal hosts it: apps/api/test/sandbox-gateway.test.ts
 * in the API suite's PostgreSQL run.
 */
export function openTestDatabase(): TestDatabase {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'card-sandbox-'));
  return {
    async connect() {
      const pglite = new PGlite(dir);
      await pglite.waitReady;
      return { executor: pglite, close: () => pglite.close() };
    },
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export interface Sandbox {
  app: FastifyInstance;
  /** Runs SQL on the sandbox's database, as a test's look behind the API. */
  sql(statement: string, params?: unknown[]): Promise<unknown[]>;
  close(): Promise<void>;
}

/** The sandbox served from the database, as a standalone app under /card-sandbox. */
export async function startSandbox(database: TestDatabase): Promise<Sandbox> {
  const connection = await database.connect();
  const { store } = await openCardSandboxStore({ executor: connection.executor });
  const app = await createCardSandboxApp({
    prefix: '/card-sandbox',
    store,
    publishableKey: PUBLISHABLE_KEY,
    secretKey: SECRET_KEY,
  });
  await app.ready();
  return {
    app,
    sql: async (statement, params) => (await connection.executor.query(statement, params)).rows,
    close: async () => {
      await app.close();
      await connection.close();
    },
  };
}

export interface CardFields {
  number: string;
  expMonth?: number | string;
  expYear?: number | string;
  cvc?: string;
  name?: string;
}

/** A year a card is still valid in. */
export const NEXT_YEAR = new Date().getUTCFullYear() + 1;

export function tokenRequest(
  app: FastifyInstance,
  card: CardFields,
  headers: Record<string, string> = browser,
) {
  return app.inject({
    method: 'POST',
    url: '/card-sandbox/v1/tokens',
    headers,
    payload: { expMonth: 12, expYear: NEXT_YEAR, cvc: '123', ...card },
  });
}

/** A fresh token for a card number. */
export async function tokenFor(app: FastifyInstance, number: string): Promise<string> {
  const response = await tokenRequest(app, { number, cvc: /^3[47]/.test(number) ? '1234' : '123' });
  if (response.statusCode !== 200)
    throw new Error(`tokens answered ${response.statusCode}: ${response.body}`);
  return response.json<{ id: string }>().id;
}

export function chargeRequest(
  app: FastifyInstance,
  idempotencyKey: string | undefined,
  body: Record<string, unknown>,
) {
  return app.inject({
    method: 'POST',
    url: '/card-sandbox/v1/charges',
    headers: { ...server, ...(idempotencyKey !== undefined ? { 'idempotency-key': idempotencyKey } : {}) },
    payload: { amountCents: 1000, currency: 'usd', description: 'Top-up', ...body },
  });
}

export async function createCustomer(app: FastifyInstance): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/card-sandbox/v1/customers',
    headers: server,
    payload: {},
  });
  if (response.statusCode !== 200)
    throw new Error(`customers answered ${response.statusCode}: ${response.body}`);
  return response.json<{ id: string }>().id;
}

export function savePaymentMethod(app: FastifyInstance, token: string, customer: string) {
  return app.inject({
    method: 'POST',
    url: '/card-sandbox/v1/payment-methods',
    headers: server,
    payload: { token, customer },
  });
}

export async function chargesOf(app: FastifyInstance, idempotencyKey?: string) {
  const query = idempotencyKey === undefined ? '' : `?idempotencyKey=${encodeURIComponent(idempotencyKey)}`;
  const response = await app.inject({
    method: 'GET',
    url: `/card-sandbox/v1/charges${query}`,
    headers: server,
  });
  if (response.statusCode !== 200)
    throw new Error(`charges answered ${response.statusCode}: ${response.body}`);
  return response.json<{
    data: { id: string; idempotencyKey: string; status: string; amountCents: number }[];
  }>().data;
}
