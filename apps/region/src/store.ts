import crypto from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import type { NetworkStatus, RegionKey } from '@portal/contracts';

/**
 * The one thing the store needs from a database: parameterised queries answering rows.
 * A PGlite instance and a `pg` Pool both fit, so the emulator can live in the portal's own
 * database (in the `region` schema) or in a PGlite directory of its own.
 */
export interface SqlExecutor {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

// One statement per entry: PGlite's `query` runs prepared statements, which take only one.
const MIGRATION = [
  'CREATE SCHEMA IF NOT EXISTS region',
  `CREATE TABLE IF NOT EXISTS region.networks (
    network_id text PRIMARY KEY,
    application_id text NOT NULL,
    organization_id text NOT NULL,
    name text NOT NULL,
    region text NOT NULL,
    status text NOT NULL,
    api_key_hash text NOT NULL UNIQUE,
    api_key text NOT NULL,
    console_url text NOT NULL,
    created_at timestamptz NOT NULL,
    active_at timestamptz,
    first_activity_at timestamptz,
    UNIQUE (region, application_id)
  )`,
  `CREATE TABLE IF NOT EXISTS region.active_users (
    network_id text NOT NULL REFERENCES region.networks (network_id),
    month text NOT NULL,
    user_id text NOT NULL,
    PRIMARY KEY (network_id, month, user_id)
  )`,
  `CREATE TABLE IF NOT EXISTS region.sessions (
    token_hash text PRIMARY KEY,
    region text NOT NULL,
    user_id text NOT NULL,
    email text NOT NULL,
    application_id text NOT NULL,
    expires_at timestamptz NOT NULL
  )`,
  // The portal session that opened the regional one, re-checked with the portal on every use.
  'ALTER TABLE region.sessions ADD COLUMN IF NOT EXISTS portal_session_id text',
];

export interface StoredNetwork {
  networkId: string;
  applicationId: string;
  organizationId: string;
  name: string;
  region: RegionKey;
  /** The effective status: a provisioning network whose activation time has passed is active. */
  status: NetworkStatus;
  apiKey: string;
  consoleUrl: string;
  createdAt: Date;
  firstActivityAt: Date | null;
}

export interface RegionalSession {
  region: RegionKey;
  /** The portal session (access token `sid`) that opened this one; null for sessions from before it was kept. */
  portalSessionId: string | null;
  userId: string;
  email: string;
  applicationId: string;
  expiresAt: Date;
}

interface NetworkRow {
  network_id: string;
  application_id: string;
  organization_id: string;
  name: string;
  region: RegionKey;
  status: NetworkStatus;
  api_key: string;
  console_url: string;
  created_at: Date;
  active_at: Date | null;
  first_activity_at: Date | null;
}

const NETWORK_COLUMNS =
  'network_id, application_id, organization_id, name, region, status, api_key, console_url, created_at, active_at, first_activity_at';

export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

function toNetwork(row: NetworkRow, now: Date): StoredNetwork {
  // Provisioning ends at a stored time rather than on a timer, so a restart cannot lose it.
  const status =
    row.status === 'provisioning' && row.active_at && row.active_at <= now ? 'active' : row.status;
  return {
    networkId: row.network_id,
    applicationId: row.application_id,
    organizationId: row.organization_id,
    name: row.name,
    region: row.region,
    status,
    apiKey: row.api_key,
    consoleUrl: row.console_url,
    createdAt: row.created_at,
    firstActivityAt: row.first_activity_at,
  };
}

export interface CreateNetworkInput {
  region: RegionKey;
  applicationId: string;
  organizationId: string;
  name: string;
  provisioningDelayMs: number;
  consoleUrl: (networkId: string) => string;
}

export class RegionStore {
  constructor(private readonly executor: SqlExecutor) {}

  /** Rows typed by the caller: each query's column list is written next to its row type. */
  private async query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }> {
    return (await this.executor.query(sql, params)) as { rows: T[] };
  }

  async migrate(): Promise<void> {
    for (const statement of MIGRATION) await this.query(statement);
  }

  /** Creates the application's network, or answers the one it already has in that region. */
  async createNetwork(input: CreateNetworkInput): Promise<StoredNetwork> {
    const now = new Date();
    const networkId = `net_${crypto.randomBytes(10).toString('hex')}`;
    // The emulator keeps the key itself (not only its hash) because GET apikey must show it
    // again; a real platform would encrypt it at rest.
    const apiKey = `rk_${crypto.randomBytes(24).toString('base64url')}`;
    const inserted = await this.query<NetworkRow>(
      `INSERT INTO region.networks
         (network_id, application_id, organization_id, name, region, status, api_key_hash, api_key, console_url, created_at, active_at)
       VALUES ($1, $2, $3, $4, $5, 'provisioning', $6, $7, $8, $9, $10)
       ON CONFLICT (region, application_id) DO NOTHING
       RETURNING ${NETWORK_COLUMNS}`,
      [
        networkId,
        input.applicationId,
        input.organizationId,
        input.name,
        input.region,
        sha256(apiKey),
        apiKey,
        input.consoleUrl(networkId),
        now,
        new Date(now.getTime() + input.provisioningDelayMs),
      ],
    );
    const row = inserted.rows[0];
    if (row) return toNetwork(row, now);
    const existing = await this.networkByApplication(input.region, input.applicationId);
    if (!existing) throw new Error(`network for ${input.applicationId} vanished after a conflicting insert`);
    return existing;
  }

  async network(region: RegionKey, networkId: string): Promise<StoredNetwork | undefined> {
    const { rows } = await this.query<NetworkRow>(
      `SELECT ${NETWORK_COLUMNS} FROM region.networks WHERE region = $1 AND network_id = $2`,
      [region, networkId],
    );
    return rows[0] && toNetwork(rows[0], new Date());
  }

  async networkByApplication(region: RegionKey, applicationId: string): Promise<StoredNetwork | undefined> {
    const { rows } = await this.query<NetworkRow>(
      `SELECT ${NETWORK_COLUMNS} FROM region.networks WHERE region = $1 AND application_id = $2`,
      [region, applicationId],
    );
    return rows[0] && toNetwork(rows[0], new Date());
  }

  async networkByApiKey(region: RegionKey, apiKey: string): Promise<StoredNetwork | undefined> {
    const { rows } = await this.query<NetworkRow>(
      `SELECT ${NETWORK_COLUMNS} FROM region.networks WHERE region = $1 AND api_key_hash = $2`,
      [region, sha256(apiKey)],
    );
    return rows[0] && toNetwork(rows[0], new Date());
  }

  async updateNetwork(
    region: RegionKey,
    networkId: string,
    name: string,
  ): Promise<StoredNetwork | undefined> {
    const { rows } = await this.query<NetworkRow>(
      `UPDATE region.networks SET name = $3 WHERE region = $1 AND network_id = $2 RETURNING ${NETWORK_COLUMNS}`,
      [region, networkId, name],
    );
    return rows[0] && toNetwork(rows[0], new Date());
  }

  async deactivateNetwork(region: RegionKey, networkId: string): Promise<StoredNetwork | undefined> {
    const { rows } = await this.query<NetworkRow>(
      `UPDATE region.networks SET status = 'inactive' WHERE region = $1 AND network_id = $2 RETURNING ${NETWORK_COLUMNS}`,
      [region, networkId],
    );
    return rows[0] && toNetwork(rows[0], new Date());
  }

  /** Makes the network active again; one deactivated while still provisioning is active from now on. */
  async reactivateNetwork(region: RegionKey, networkId: string): Promise<StoredNetwork | undefined> {
    const now = new Date();
    const { rows } = await this.query<NetworkRow>(
      `UPDATE region.networks
         SET status = 'active', active_at = LEAST(COALESCE(active_at, $3), $3)
       WHERE region = $1 AND network_id = $2 RETURNING ${NETWORK_COLUMNS}`,
      [region, networkId, now],
    );
    return rows[0] && toNetwork(rows[0], now);
  }

  /** Marks the network's first activity (once) and counts the user as active in that month. */
  async recordSdkSession(networkId: string, userId: string, month: string): Promise<void> {
    await this.query(
      'UPDATE region.networks SET first_activity_at = COALESCE(first_activity_at, $2) WHERE network_id = $1',
      [networkId, new Date()],
    );
    await this.query(
      'INSERT INTO region.active_users (network_id, month, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [networkId, month, userId],
    );
  }

  /** Distinct active users per network of the region in one month ('YYYY-MM'); networks without any answer 0. */
  async usage(
    region: RegionKey,
    month: string,
  ): Promise<{ networkId: string; applicationId: string; activeUsers: number }[]> {
    const { rows } = await this.query<{ network_id: string; application_id: string; active_users: number }>(
      `SELECT n.network_id, n.application_id, COUNT(u.user_id)::int AS active_users
       FROM region.networks n
       LEFT JOIN region.active_users u ON u.network_id = n.network_id AND u.month = $2
       WHERE n.region = $1
       GROUP BY n.network_id, n.application_id
       ORDER BY n.network_id`,
      [region, month],
    );
    return rows.map((r) => ({
      networkId: r.network_id,
      applicationId: r.application_id,
      activeUsers: r.active_users,
    }));
  }

  /** Opens a regional session and answers its token; only the token's hash is kept. */
  async createSession(session: RegionalSession): Promise<string> {
    const token = crypto.randomBytes(32).toString('base64url');
    await this.query(
      `INSERT INTO region.sessions (token_hash, region, portal_session_id, user_id, email, application_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        sha256(token),
        session.region,
        session.portalSessionId,
        session.userId,
        session.email,
        session.applicationId,
        session.expiresAt,
      ],
    );
    return token;
  }

  async session(region: RegionKey, token: string): Promise<RegionalSession | undefined> {
    const { rows } = await this.query<{
      portal_session_id: string | null;
      user_id: string;
      email: string;
      application_id: string;
      expires_at: Date;
    }>(
      `SELECT portal_session_id, user_id, email, application_id, expires_at FROM region.sessions
       WHERE token_hash = $1 AND region = $2 AND expires_at > $3`,
      [sha256(token), region, new Date()],
    );
    const row = rows[0];
    return (
      row && {
        region,
        portalSessionId: row.portal_session_id,
        userId: row.user_id,
        email: row.email,
        applicationId: row.application_id,
        expiresAt: row.expires_at,
      }
    );
  }

  /** Ends a regional session, as when the portal no longer vouches for it. */
  async deleteSession(region: RegionKey, token: string): Promise<void> {
    await this.query('DELETE FROM region.sessions WHERE token_hash = $1 AND region = $2', [sha256(token), region]);
  }
}

export type RegionStoreOptions =
  /** An existing database (the portal's PostgreSQL pool or PGlite); the store keeps to schema `region`. */
  | { executor: SqlExecutor }
  /** A PGlite directory of the emulator's own; omitted means in memory. */
  | { dataDir?: string };

/** Opens the store and applies its tables (idempotent). */
export async function openRegionStore(
  options: RegionStoreOptions = {},
): Promise<{ store: RegionStore; close: () => Promise<void> }> {
  if ('executor' in options) {
    const store = new RegionStore(options.executor);
    await store.migrate();
    // The caller owns the connection it lent, so closing the store leaves it open.
    return { store, close: async () => {} };
  }
  const pglite = new PGlite(options.dataDir);
  await pglite.waitReady;
  const store = new RegionStore(pglite);
  await store.migrate();
  return { store, close: () => pglite.close() };
}
