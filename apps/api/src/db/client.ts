import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';
import { pgliteSessionChanges, postgresSessionChanges, type SessionChangeFeed } from './session-changes.ts';
import * as schema from './schema.ts';
import { withStartupLock } from './startup-lock.ts';

export type Schema = typeof schema;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- both drivers share this query-builder surface
export type Db = PgDatabase<PgQueryResultHKT, Schema, any>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/**
 * What repositories run their statements on: the database, or a transaction a service opened, so
 * that one service can put several repository writes in one transaction.
 */
export type Executor = Db | Tx;

/** A statement run as it is written, with the name PostgreSQL prepares it under once per connection. */
export interface NamedStatement {
  name: string;
  text: string;
}

export interface Database {
  db: Db;
  /**
   * Runs a statement without the query builder, for the hottest path (the session check of every
   * request): on PostgreSQL prepared once per connection, on PGlite with its default type parsers
   * (the query builder's per-statement parsers cost about a tenth of a session check there).
   */
  query<Row>(statement: NamedStatement, values: unknown[]): Promise<Row[]>;
  kind: 'pglite' | 'postgres';
  /** Reports every change to what the session lookup reads, for the API's kept session answers. */
  sessionChanges: SessionChangeFeed;
  /** The raw PGlite instance when embedded (pg-boss and tests use it). */
  pglite?: PGlite;
  pool?: pg.Pool;
  close(): Promise<void>;
}

/** apps/api/drizzle, found from this module whether it runs from src/db or from the dist bundle. */
function findMigrationsDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 4; depth += 1) {
    const candidate = path.join(dir, 'drizzle');
    if (fs.existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('The database migrations folder (apps/api/drizzle) is missing.');
}

const MIGRATIONS_DIR = findMigrationsDir();

/**
 * PGlite as the query builder reaches it, minus the parser table Drizzle hands every statement.
 * Drizzle passes its own parsers only to keep timestamps as text, and PGlite answers that by
 * copying its whole table of about 320 parsers into a new object per statement: a quarter of a
 * simple statement's cost here. Without them PGlite gives timestamps as Dates, which Drizzle's
 * timestamp columns take as they are; every other type parses as Drizzle asked (the schema has no
 * date, interval or timestamp-without-zone column, whose Drizzle mapping would differ).
 */
class PgliteForQueryBuilder {
  constructor(private readonly connection: PGlite | Transaction) {}

  query<Row>(text: string, params?: unknown[], options?: QueryOptions) {
    return this.connection.query<Row>(
      text,
      params,
      options?.rowMode ? { rowMode: options.rowMode } : undefined,
    );
  }

  transaction<T>(callback: (tx: PgliteForQueryBuilder) => Promise<T>): Promise<T> {
    // Drizzle opens nested transactions as savepoints with statements, never through here.
    if (!(this.connection instanceof PGlite)) throw new Error('A PGlite transaction cannot open another.');
    return this.connection.transaction((tx) => callback(new PgliteForQueryBuilder(tx)));
  }
}

export interface OpenDatabaseOptions {
  databaseUrl: string | undefined;
  /** PGlite files live here when databaseUrl is unset. `memory://` keeps them in memory. */
  dataDir: string;
  /**
   * PGlite only: a new database starts as this copy of another (PGlite's dumpDataDir), migrations
   * then adding whatever it lacks. Creating a PGlite database from nothing takes seconds; the test
   * suites start each file's database from one migrated copy.
   */
  pgliteCopy?: Blob;
}

/** Opens the portal database (PostgreSQL when a URL is given, PGlite otherwise) and applies migrations. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection the server ends (restart, failover, a dropped database) is discarded and
    // replaced on next use; without a listener node-postgres would crash the process instead.
    pool.on('error', () => undefined);
    // The same for a connection checked out between two queries (a transaction waiting on other
    // work): node-postgres emits the server's FATAL on the client itself, and the pool listens only
    // to idle ones. The transaction's next query fails instead, and the pool discards the client.
    pool.on('connect', (client) => client.on('error', () => undefined));
    // Before the first connection, so that every connection reports its writes.
    const sessionChanges = postgresSessionChanges(pool, options.databaseUrl);
    const db = drizzleNodePg(pool, { schema }) as unknown as Db;
    await withStartupLock(pool, 'migrations', () =>
      migrateNodePg(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    );
    return {
      db,
      query: async <Row>({ name, text }: NamedStatement, values: unknown[]) =>
        (await pool.query({ name, text, values })).rows as Row[],
      kind: 'postgres',
      sessionChanges,
      pool,
      close: () => pool.end(),
    };
  }
  const inMemory = options.dataDir === 'memory://';
  const release = inMemory ? () => undefined : lockDataDir(options.dataDir);
  try {
    const pglite = new PGlite({
      dataDir: inMemory ? undefined : path.join(options.dataDir, 'pglite'),
      loadDataDir: options.pgliteCopy,
    });
    await pglite.waitReady;
    const db = drizzlePglite({
      client: new PgliteForQueryBuilder(pglite) as unknown as PGlite,
      schema,
    }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR });
    return {
      db,
      query: async <Row>({ text }: NamedStatement, values: unknown[]) =>
        (await pglite.query<Row>(text, values)).rows,
      kind: 'pglite',
      sessionChanges: pgliteSessionChanges(pglite),
      pglite,
      close: async () => {
        await pglite.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** True for PostgreSQL's unique_violation (23505), on either driver, however Drizzle wraps it. */
export function isUniqueViolation(error: unknown): boolean {
  return uniqueViolationOf(error) !== undefined;
}

/**
 * The unique_violation (23505) inside an error, on either driver, however Drizzle wraps it, with the
 * constraint or index it broke (empty when the driver does not say).
 */
export function uniqueViolationOf(error: unknown): { constraint: string } | undefined {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (code === '23505') return { constraint: typeof constraint === 'string' ? constraint : '' };
  }
  return undefined;
}

/**
 * SQLSTATEs of a server that is going away or not yet back: admin_shutdown (57P01, a restart's fast
 * stop), crash_shutdown, cannot_connect_now (starting up or shutting down), connection exceptions.
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
/** What the driver reports when the server cannot be reached at all. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE']);
/** node-postgres's own words for a connection lost under a query or unusable since. */
const CONNECTION_LOST =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable)/;

/**
 * Whether an error, however wrapped, is the database being unreachable or restarting rather than
 * anything about the statement: such a request may well succeed when tried again in a moment.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || UNREACHABLE_CODES.has(code)))
      return true;
    if (typeof message === 'string' && CONNECTION_LOST.test(message)) return true;
  }
  return false;
}
