import crypto from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import type { CardBehaviour, CardBrand, CardDetails } from './cards.ts';

/** Parameterised queries answering rows: a PGlite instance, a `pg` Pool or one of its clients. */
export interface SqlQueryable {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * What the store needs from a database: queries, and a way to run several in one transaction —
 * PGlite's `transaction`, or a `pg` Pool's `connect` for a client of its own. Both fit, so the
 * sandbox can live in the portal's own database (in the `card_sandbox` schema) or in a PGlite
 * directory of its own.
 */
export type SqlExecutor = SqlQueryable &
  (
    | { transaction<T>(callback: (tx: SqlQueryable) => Promise<T>): Promise<T> }
    | { connect(): Promise<SqlQueryable & { release(error?: Error): void }> }
  );

// A card as the sandbox keeps it (tokens and payment methods alike): never the whole number nor
// the security code, only what a receipt shows and which test behaviour the number has.
const CARD_COLUMNS_DDL = `brand text NOT NULL,
    last4 text NOT NULL,
    exp_month integer NOT NULL,
    exp_year integer NOT NULL,
    behaviour text NOT NULL`;

// One statement per entry: PGlite's `query` runs prepared statements, which take only one.
const MIGRATION = [
  'CREATE SCHEMA IF NOT EXISTS card_sandbox',
  `CREATE TABLE IF NOT EXISTS card_sandbox.tokens (
    id text PRIMARY KEY,
    ${CARD_COLUMNS_DDL},
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  )`,
  `CREATE TABLE IF NOT EXISTS card_sandbox.customers (
    id text PRIMARY KEY,
    metadata jsonb NOT NULL,
    created_at timestamptz NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS card_sandbox.payment_methods (
    id text PRIMARY KEY,
    customer_id text NOT NULL REFERENCES card_sandbox.customers (id),
    ${CARD_COLUMNS_DDL},
    created_at timestamptz NOT NULL,
    detached_at timestamptz
  )`,
  // One row per idempotency key, whatever the outcome: the key is claimed by inserting the row
  // first, in the transaction that settles it, so a second request with the key waits for the
  // first and answers what it stored. `pending` is never seen outside that transaction.
  `CREATE TABLE IF NOT EXISTS card_sandbox.charges (
    seq bigint GENERATED ALWAYS AS IDENTITY,
    id text PRIMARY KEY,
    idempotency_key text NOT NULL UNIQUE,
    request_hash text NOT NULL,
    amount_cents bigint NOT NULL,
    currency text NOT NULL,
    description text NOT NULL,
    token_id text,
    payment_method_id text,
    customer_id text,
    status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    failure_code text,
    brand text,
    last4 text,
    exp_month integer,
    exp_year integer,
    response_status integer,
    response_body text,
    created_at timestamptz NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS charges_newest ON card_sandbox.charges (seq DESC)',
];

/** How long a token from the browser may wait to be used. */
export const TOKEN_LIFETIME_MS = 10 * 60 * 1000;
/** Tokens are kept this long after they expire, then deleted when new ones are made. */
const SPENT_TOKEN_RETENTION_MS = 24 * 60 * 60 * 1000;

export function newId(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(16).toString('hex')}`;
}

export type ChargeSource = { token: string } | { paymentMethod: string; customer: string };

export interface ClaimedCharge {
  id: string;
  idempotencyKey: string;
  requestHash: string;
  amountCents: number;
  currency: string;
  description: string;
  source: ChargeSource;
}

export interface StoredCharge {
  id: string;
  idempotencyKey: string;
  requestHash: string;
  status: 'succeeded' | 'failed';
  amountCents: number;
  currency: string;
  description: string;
  source: ChargeSource;
  failureCode: Exclude<CardBehaviour, 'none'> | null;
  card: Omit<CardDetails, 'behaviour'>;
  /** What the charge request was answered, sent again to a request with the same key. */
  response: { status: number; body: string };
  createdAt: Date;
}

interface CardRow {
  brand: CardBrand;
  last4: string;
  exp_month: number;
  exp_year: number;
  behaviour: CardBehaviour;
}

const CARD_COLUMNS = 'brand, last4, exp_month, exp_year, behaviour';

const toCard = (row: CardRow): CardDetails => ({
  brand: row.brand,
  last4: row.last4,
  expMonth: row.exp_month,
  expYear: row.exp_year,
  behaviour: row.behaviour,
});

interface ChargeRow {
  id: string;
  idempotency_key: string;
  request_hash: string;
  status: 'succeeded' | 'failed';
  amount_cents: string | number;
  currency: string;
  description: string;
  token_id: string | null;
  payment_method_id: string | null;
  customer_id: string | null;
  failure_code: Exclude<CardBehaviour, 'none'> | null;
  brand: CardBrand;
  last4: string;
  exp_month: number;
  exp_year: number;
  response_status: number;
  response_body: string;
  created_at: Date;
}

const CHARGE_COLUMNS =
  'id, idempotency_key, request_hash, status, amount_cents, currency, description, token_id, payment_method_id, ' +
  'customer_id, failure_code, brand, last4, exp_month, exp_year, response_status, response_body, created_at';

function toCharge(row: ChargeRow): StoredCharge {
  return {
    id: row.id,
    idempotencyKey: row.idempotency_key,
    requestHash: row.request_hash,
    status: row.status,
    // bigint arrives as text from `pg`.
    amountCents: Number(row.amount_cents),
    currency: row.currency,
    description: row.description,
    source: row.token_id
      ? { token: row.token_id }
      : { paymentMethod: row.payment_method_id ?? '', customer: row.customer_id ?? '' },
    failureCode: row.failure_code,
    card: { brand: row.brand, last4: row.last4, expMonth: row.exp_month, expYear: row.exp_year },
    response: { status: row.response_status, body: row.response_body },
    createdAt: row.created_at,
  };
}

async function inTransaction<T>(executor: SqlExecutor, work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
  if ('transaction' in executor) return executor.transaction(work);
  const client = await executor.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    // A connection whose rollback fails is not given back to the pool.
    const rolledBack = await client.query('ROLLBACK').then(
      () => true,
      () => false,
    );
    client.release(rolledBack ? undefined : (error as Error));
    throw error;
  }
}

/** The sandbox's records, in the `card_sandbox` schema: tokens, customers, saved cards and charges. */
export class CardSandboxStore {
  constructor(
    private readonly executor: SqlExecutor,
    /** Inside `transaction`: the transaction's connection, which every query of that store uses. */
    private readonly connection: SqlQueryable = executor,
  ) {}

  /** Rows typed by the caller: each query's column list is written next to its row type. */
  private async query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }> {
    return (await this.connection.query(sql, params)) as { rows: T[] };
  }

  async migrate(): Promise<void> {
    for (const statement of MIGRATION) await this.query(statement);
  }

  /** Runs `work` with a store whose queries all belong to one transaction, rolled back when it throws. */
  transaction<T>(work: (store: CardSandboxStore) => Promise<T>): Promise<T> {
    return inTransaction(this.executor, (tx) => work(new CardSandboxStore(this.executor, tx)));
  }

  async createToken(card: CardDetails, now: Date): Promise<{ id: string; expiresAt: Date }> {
    await this.query('DELETE FROM card_sandbox.tokens WHERE expires_at < $1', [
      new Date(now.getTime() - SPENT_TOKEN_RETENTION_MS),
    ]);
    const id = newId('tok');
    const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS);
    await this.query(
      `INSERT INTO card_sandbox.tokens (id, ${CARD_COLUMNS}, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [id, card.brand, card.last4, card.expMonth, card.expYear, card.behaviour, now, expiresAt],
    );
    return { id, expiresAt };
  }

  /** Marks a token used and answers its card; undefined when it is unknown, used or expired. */
  async consumeToken(id: string, now: Date): Promise<CardDetails | undefined> {
    const { rows } = await this.query<CardRow>(
      `UPDATE card_sandbox.tokens SET used_at = $2
       WHERE id = $1 AND used_at IS NULL AND expires_at > $2
       RETURNING ${CARD_COLUMNS}`,
      [id, now],
    );
    return rows[0] && toCard(rows[0]);
  }

  /** A token's card, used or not, without using it; undefined when the token is unknown. */
  async tokenCard(id: string): Promise<CardDetails | undefined> {
    const { rows } = await this.query<CardRow>(
      `SELECT ${CARD_COLUMNS} FROM card_sandbox.tokens WHERE id = $1`,
      [id],
    );
    return rows[0] && toCard(rows[0]);
  }

  async createCustomer(metadata: Record<string, string>, now: Date): Promise<string> {
    const id = newId('cus');
    await this.query(
      'INSERT INTO card_sandbox.customers (id, metadata, created_at) VALUES ($1, $2::jsonb, $3)',
      [id, JSON.stringify(metadata), now],
    );
    return id;
  }

  async customerExists(id: string): Promise<boolean> {
    const { rows } = await this.query('SELECT 1 FROM card_sandbox.customers WHERE id = $1', [id]);
    return rows.length > 0;
  }

  async createPaymentMethod(customerId: string, card: CardDetails, now: Date): Promise<string> {
    const id = newId('pm');
    await this.query(
      `INSERT INTO card_sandbox.payment_methods (id, customer_id, ${CARD_COLUMNS}, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [id, customerId, card.brand, card.last4, card.expMonth, card.expYear, card.behaviour, now],
    );
    return id;
  }

  /** A saved card of the customer, unless it was removed. */
  async paymentMethod(id: string, customerId: string): Promise<CardDetails | undefined> {
    const { rows } = await this.query<CardRow>(
      `SELECT ${CARD_COLUMNS} FROM card_sandbox.payment_methods
       WHERE id = $1 AND customer_id = $2 AND detached_at IS NULL`,
      [id, customerId],
    );
    return rows[0] && toCard(rows[0]);
  }

  /** Removes a saved card; false when there was none to remove. */
  async detachPaymentMethod(id: string, now: Date): Promise<boolean> {
    const { rows } = await this.query(
      `UPDATE card_sandbox.payment_methods SET detached_at = $2
       WHERE id = $1 AND detached_at IS NULL RETURNING id`,
      [id, now],
    );
    return rows.length > 0;
  }

  /**
   * Claims the charge's idempotency key by inserting its row: true when this request owns the key.
   * False when the key is taken; in PostgreSQL a concurrent claim waits here until the owner's
   * transaction ends, so the row is then settled (or gone, and the claim succeeds).
   */
  async claimCharge(charge: ClaimedCharge, now: Date): Promise<boolean> {
    const source = 'token' in charge.source ? charge.source : undefined;
    const saved = 'paymentMethod' in charge.source ? charge.source : undefined;
    const { rows } = await this.query(
      `INSERT INTO card_sandbox.charges
         (id, idempotency_key, request_hash, amount_cents, currency, description, token_id, payment_method_id, customer_id, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING id`,
      [
        charge.id,
        charge.idempotencyKey,
        charge.requestHash,
        charge.amountCents,
        charge.currency,
        charge.description,
        source?.token ?? null,
        saved?.paymentMethod ?? null,
        saved?.customer ?? null,
        now,
      ],
    );
    return rows.length > 0;
  }

  /** Records a claimed charge's outcome and the answer given, in the claiming transaction. */
  async settleCharge(
    id: string,
    outcome: {
      failureCode: Exclude<CardBehaviour, 'none'> | undefined;
      card: CardDetails;
      response: { status: number; body: string };
    },
  ): Promise<void> {
    const { card } = outcome;
    await this.query(
      `UPDATE card_sandbox.charges
       SET status = $2, failure_code = $3, brand = $4, last4 = $5, exp_month = $6, exp_year = $7,
           response_status = $8, response_body = $9
       WHERE id = $1 AND status = 'pending'`,
      [
        id,
        outcome.failureCode ? 'failed' : 'succeeded',
        outcome.failureCode ?? null,
        card.brand,
        card.last4,
        card.expMonth,
        card.expYear,
        outcome.response.status,
        outcome.response.body,
      ],
    );
  }

  /** Settled charges, newest first: the one of an idempotency key, or the latest `limit`. */
  async charges(filter: { idempotencyKey?: string; limit: number }): Promise<StoredCharge[]> {
    const byKey = filter.idempotencyKey !== undefined;
    const { rows } = await this.query<ChargeRow>(
      `SELECT ${CHARGE_COLUMNS} FROM card_sandbox.charges
       WHERE status <> 'pending' ${byKey ? 'AND idempotency_key = $2' : ''}
       ORDER BY seq DESC LIMIT $1`,
      byKey ? [filter.limit, filter.idempotencyKey] : [filter.limit],
    );
    return rows.map(toCharge);
  }
}

export type CardSandboxStoreOptions =
  /** An existing database (the portal's PostgreSQL pool or PGlite); the store keeps to schema `card_sandbox`. */
  | { executor: SqlExecutor }
  /** A PGlite directory of the sandbox's own; omitted means in memory. */
  | { dataDir?: string };

/** Opens the store and applies its tables (idempotent). */
export async function openCardSandboxStore(
  options: CardSandboxStoreOptions = {},
): Promise<{ store: CardSandboxStore; close: () => Promise<void> }> {
  if ('executor' in options) {
    const store = new CardSandboxStore(options.executor);
    await store.migrate();
    // The caller owns the connection it lent, so closing the store leaves it open.
    return { store, close: async () => {} };
  }
  const pglite = new PGlite(options.dataDir);
  await pglite.waitReady;
  const store = new CardSandboxStore(pglite);
  await store.migrate();
  return { store, close: () => pglite.close() };
}
