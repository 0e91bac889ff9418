import crypto from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import {
  MAX_WORKING_API_KEYS,
  type ApiKeyResponse,
  type ApiKeyStatus,
  type NetworkStatus,
  type RegionKey,
} from '@portal/contracts';

/**
 * The one thing the store needs from a database: parameterised queries answering rows.
 * A PGlite instance and a `pg` Pool both fit, so the emulator can live in the portal's own
 * database (in the `region` schema) or in a PGlite directory of its own.
 */
export interface SqlExecutor {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** `rk_` and the next 8 characters of a key: enough to tell keys apart, so kept in the clear. */
const API_KEY_PREFIX_LENGTH = 11;

const FIRST_KEY_NAME = 'Default key';

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
  // A network's keys (decision 043). Only the first key keeps its secret, which the setup wizard
  // shows; every later key is shown once, when it is made, and kept as its hash only. A key that
  // works holds one of the network's places (1 to MAX_WORKING_API_KEYS): the unique index keeps
  // two keys made at once from both taking the last place, whichever connection makes them.
  `CREATE TABLE IF NOT EXISTS region.api_keys (
    key_id text PRIMARY KEY,
    network_id text NOT NULL REFERENCES region.networks (network_id),
    name text NOT NULL,
    prefix text NOT NULL,
    key_hash text NOT NULL UNIQUE,
    secret text,
    place smallint,
    created_at timestamptz NOT NULL,
    expires_at timestamptz,
    revoked_at timestamptz,
    last_used_at timestamptz,
    UNIQUE (network_id, place)
  )`,
  'CREATE INDEX IF NOT EXISTS api_keys_network_idx ON region.api_keys (network_id, created_at)',
  // A network made before keys had a table of their own moves its key there as its first key.
  `INSERT INTO region.api_keys (key_id, network_id, name, prefix, key_hash, secret, place, created_at)
   SELECT 'key_' || network_id, network_id, '${FIRST_KEY_NAME}', left(api_key, ${API_KEY_PREFIX_LENGTH}), api_key_hash, api_key, 1, created_at
   FROM region.networks WHERE api_key IS NOT NULL
   ON CONFLICT DO NOTHING`,
  // The network's own key columns are no longer written or read, but stay (nullable) because
  // migrations are additive: an instance of the previous release, still running while the next
  // one starts (docs/deployment.md), reads and writes them; a network it makes then has its key
  // moved by the statement above at the next start. A later release may drop them.
  'ALTER TABLE region.networks ALTER COLUMN api_key DROP NOT NULL',
  'ALTER TABLE region.networks ALTER COLUMN api_key_hash DROP NOT NULL',
  // Once moved, the network's copy of the key is one more place it could leak from: the first key
  // keeps it while it works. The hash stays, which a previous release's SDK call still reads.
  `UPDATE region.networks SET api_key = NULL
   WHERE api_key IS NOT NULL AND EXISTS (SELECT 1 FROM region.api_keys WHERE key_id = 'key_' || network_id)`,
];

export interface StoredNetwork {
  networkId: string;
  applicationId: string;
  organizationId: string;
  name: string;
  region: RegionKey;
  /** The effective status: a provisioning network whose activation time has passed is active. */
  status: NetworkStatus;
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
  console_url: string;
  created_at: Date;
  active_at: Date | null;
  first_activity_at: Date | null;
}

const NETWORK_COLUMNS =
  'network_id, application_id, organization_id, name, region, status, console_url, created_at, active_at, first_activity_at';

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
    consoleUrl: row.console_url,
    createdAt: row.created_at,
    firstActivityAt: row.first_activity_at,
  };
}

/** A key as the store keeps it: never the key itself. */
export interface StoredApiKey {
  keyId: string;
  name: string;
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  status: ApiKeyStatus;
}

interface ApiKeyRow {
  key_id: string;
  name: string;
  prefix: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

const API_KEY_COLUMNS = 'key_id, name, prefix, created_at, expires_at, revoked_at, last_used_at';

/**
 * Whether a key still works at the time in parameter `at` ('$n'): not revoked, and no expiry or
 * one still ahead. Times come from the process clock, never the database's now(), so a portal
 * run on a set clock (the e2e ClockedPortal) and tests with fake timers agree with the store.
 */
const KEY_WORKS_AT = (at: string) => `revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${at})`;

/** A key the store will not make: its id is taken, or the network has its maximum of working keys. */
export class ApiKeyConflict extends Error {
  constructor(
    readonly code: 'API_KEY_EXISTS' | 'API_KEY_LIMIT',
    message: string,
  ) {
    super(message);
  }
}

function newApiKeySecret(): string {
  return `rk_${crypto.randomBytes(24).toString('base64url')}`;
}

function apiKeyPrefix(secret: string): string {
  return secret.slice(0, API_KEY_PREFIX_LENGTH);
}

/** A revocation outranks an expiry: the key was stopped on purpose. */
function apiKeyStatus(row: ApiKeyRow, now: Date): ApiKeyStatus {
  if (row.revoked_at) return 'revoked';
  if (!row.expires_at) return 'active';
  return row.expires_at > now ? 'expiring' : 'expired';
}

function toApiKey(row: ApiKeyRow, now: Date): StoredApiKey {
  return {
    keyId: row.key_id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    status: apiKeyStatus(row, now),
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

  /** Creates the application's network with its first key, or answers the one it already has in that region. */
  async createNetwork(input: CreateNetworkInput): Promise<StoredNetwork> {
    const now = new Date();
    const networkId = `net_${crypto.randomBytes(10).toString('hex')}`;
    const firstKey = newApiKeySecret();
    // One statement makes both, atomically, so no network is ever without a key. The first key's
    // id follows from the network's, as for the keys moved from networks made before keys had a
    // table.
    const inserted = await this.query<NetworkRow>(
      `WITH network AS (
         INSERT INTO region.networks
           (network_id, application_id, organization_id, name, region, status, console_url, created_at, active_at)
         VALUES ($1, $2, $3, $4, $5, 'provisioning', $6, $7, $8)
         ON CONFLICT (region, application_id) DO NOTHING
         RETURNING ${NETWORK_COLUMNS}
       ), first_key AS (
         INSERT INTO region.api_keys (key_id, network_id, name, prefix, key_hash, secret, place, created_at)
         SELECT 'key_' || network_id, network_id, $9::text, $10::text, $11::text, $12::text, 1, created_at FROM network
       )
       SELECT ${NETWORK_COLUMNS} FROM network`,
      [
        networkId,
        input.applicationId,
        input.organizationId,
        input.name,
        input.region,
        input.consoleUrl(networkId),
        now,
        new Date(now.getTime() + input.provisioningDelayMs),
        FIRST_KEY_NAME,
        apiKeyPrefix(firstKey),
        sha256(firstKey),
        // The emulator keeps the first key itself (not only its hash) because the setup wizard
        // shows it again; a real platform would encrypt it at rest.
        firstKey,
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

  /**
   * Records an SDK session: the network's first activity (once), the key's last use, and the user
   * as active in that month ('YYYY-MM').
   */
  async recordSdkSession(session: {
    networkId: string;
    keyId: string;
    userId: string;
    month: string;
  }): Promise<void> {
    const { networkId, keyId, userId, month } = session;
    const now = new Date();
    await this.query(
      'UPDATE region.networks SET first_activity_at = COALESCE(first_activity_at, $2) WHERE network_id = $1',
      [networkId, now],
    );
    await this.query('UPDATE region.api_keys SET last_used_at = $2 WHERE key_id = $1', [keyId, now]);
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

  /**
   * Keys that have stopped (revoked, or past their expiry by `now`) give their places back and
   * forget their secret: only the first key keeps one, for the setup wizard, which shows no
   * stopped key. The store runs no timer, so a key that expired is found here, when its network's
   * keys are next listed, made or read by the wizard.
   */
  private async releaseStoppedKeys(networkId: string, now: Date): Promise<void> {
    await this.query(
      `UPDATE region.api_keys SET place = NULL, secret = NULL
       WHERE network_id = $1 AND (place IS NOT NULL OR secret IS NOT NULL) AND NOT (${KEY_WORKS_AT('$2')})`,
      [networkId, now],
    );
  }

  /** The network's keys, newest first. */
  async listApiKeys(networkId: string): Promise<StoredApiKey[]> {
    const now = new Date();
    await this.releaseStoppedKeys(networkId, now);
    const { rows } = await this.query<ApiKeyRow>(
      `SELECT ${API_KEY_COLUMNS} FROM region.api_keys WHERE network_id = $1 ORDER BY created_at DESC, key_id DESC`,
      [networkId],
    );
    return rows.map((row) => toApiKey(row, now));
  }

  /**
   * Makes a key under the id the portal chose and answers it with its secret, which is kept as a
   * hash only. Refused (ApiKeyConflict) when the id is taken or the network already has its
   * maximum of working keys.
   */
  async createApiKey(
    networkId: string,
    key: { keyId: string; name: string },
  ): Promise<{ key: StoredApiKey; secret: string }> {
    const now = new Date();
    const secret = newApiKeySecret();
    await this.releaseStoppedKeys(networkId, now);
    // Each pass takes the lowest free place. A pass that makes nothing lost that place to a key
    // made at the same time, which is then seen taken: at most one pass per place.
    for (let pass = 0; pass <= MAX_WORKING_API_KEYS; pass += 1) {
      const { rows } = await this.query<ApiKeyRow>(
        `INSERT INTO region.api_keys (key_id, network_id, name, prefix, key_hash, place, created_at)
         SELECT $1::text, $2::text, $3::text, $4::text, $5::text, free.place, $6::timestamptz
         FROM generate_series(1, ${MAX_WORKING_API_KEYS}) AS free (place)
         WHERE free.place NOT IN (SELECT place FROM region.api_keys WHERE network_id = $2 AND place IS NOT NULL)
         ORDER BY free.place LIMIT 1
         ON CONFLICT DO NOTHING
         RETURNING ${API_KEY_COLUMNS}`,
        [key.keyId, networkId, key.name, apiKeyPrefix(secret), sha256(secret), now],
      );
      const row = rows[0];
      if (row) return { key: toApiKey(row, now), secret };
      const taken = await this.query('SELECT 1 FROM region.api_keys WHERE key_id = $1', [key.keyId]);
      if (taken.rows.length > 0)
        throw new ApiKeyConflict('API_KEY_EXISTS', `A key with the id '${key.keyId}' exists`);
      const held = await this.query<{ places: number }>(
        'SELECT count(*)::int AS places FROM region.api_keys WHERE network_id = $1 AND place IS NOT NULL',
        [networkId],
      );
      if ((held.rows[0]?.places ?? 0) >= MAX_WORKING_API_KEYS) break;
    }
    throw new ApiKeyConflict(
      'API_KEY_LIMIT',
      `A network has at most ${MAX_WORKING_API_KEYS} keys that work; revoke one or let it expire first`,
    );
  }

  /**
   * Sets when the key stops; a key already stopping earlier keeps its earlier time. A key that
   * stops by now forgets its secret at once (only the first key had one).
   */
  async expireApiKey(networkId: string, keyId: string, at: Date): Promise<StoredApiKey | undefined> {
    const now = new Date();
    // LEAST passes over a NULL: a key without an expiry takes the new one.
    const { rows } = await this.query<ApiKeyRow>(
      `UPDATE region.api_keys
         SET expires_at = LEAST(expires_at, $3::timestamptz),
             secret = CASE WHEN LEAST(expires_at, $3::timestamptz) > $4::timestamptz THEN secret END
       WHERE network_id = $1 AND key_id = $2 RETURNING ${API_KEY_COLUMNS}`,
      [networkId, keyId, at, now],
    );
    return rows[0] && toApiKey(rows[0], now);
  }

  /**
   * Stops the key now; revoking it again keeps the first revocation's time. Its secret, which only
   * the first key kept (for the setup wizard), goes with it.
   */
  async revokeApiKey(networkId: string, keyId: string): Promise<StoredApiKey | undefined> {
    const now = new Date();
    const { rows } = await this.query<ApiKeyRow>(
      `UPDATE region.api_keys SET revoked_at = COALESCE(revoked_at, $3), secret = NULL
       WHERE network_id = $1 AND key_id = $2 RETURNING ${API_KEY_COLUMNS}`,
      [networkId, keyId, now],
    );
    return rows[0] && toApiKey(rows[0], now);
  }

  /** The key an SDK call presents, with its network, when it belongs to a network of this region. */
  async apiKeyBySecret(
    region: RegionKey,
    secret: string,
  ): Promise<{ key: StoredApiKey; network: StoredNetwork } | undefined> {
    const { rows } = await this.query<ApiKeyRow & { network_id: string }>(
      `SELECT network_id, ${API_KEY_COLUMNS} FROM region.api_keys WHERE key_hash = $1`,
      [sha256(secret)],
    );
    const row = rows[0];
    const network = row && (await this.network(region, row.network_id));
    return network && { key: toApiKey(row, new Date()), network };
  }

  /**
   * What the setup wizard shows: the network's first key while it works; once it has stopped, no
   * key and the prefix of the newest key that still works (null when none does).
   */
  async setupApiKey(networkId: string): Promise<ApiKeyResponse> {
    const now = new Date();
    await this.releaseStoppedKeys(networkId, now);
    // Only the first key keeps a secret, so it sorts before the other working keys.
    const { rows } = await this.query<{ secret: string | null; prefix: string }>(
      `SELECT secret, prefix FROM region.api_keys WHERE network_id = $1 AND ${KEY_WORKS_AT('$2')}
       ORDER BY secret IS NOT NULL DESC, created_at DESC, key_id DESC LIMIT 1`,
      [networkId, now],
    );
    const row = rows[0];
    return row?.secret ? { apiKey: row.secret } : { apiKey: null, prefix: row?.prefix ?? null };
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
    await this.query('DELETE FROM region.sessions WHERE token_hash = $1 AND region = $2', [
      sha256(token),
      region,
    ]);
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
