import crypto from 'node:crypto';
import { getTableColumns } from 'drizzle-orm';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type { Database, NamedStatement } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import { SESSION_COOKIE_NAME } from './auth.ts';
import { SessionCache } from './session-cache.ts';
import { mustEnrolWhenRequired } from './two-factor.ts';

type MemberRow = typeof schema.member.$inferSelect;
type OrganizationRow = typeof schema.organization.$inferSelect;

export interface Membership {
  member: Pick<
    MemberRow,
    'id' | 'organizationId' | 'displayName' | 'roleId' | 'allApplications' | 'lastLoginAt' | 'tourState'
  >;
  organization: Omit<
    OrganizationRow,
    'privacyPolicyAcceptedAt' | 'termsAcceptedAt' | 'createdAt' | 'updatedAt'
  >;
}

/** What the lookup functions (migration 0005) answer: database column names in the nested rows. */
interface LookupJson {
  sessionId: string;
  /** When the session ends (an ISO timestamp). */
  expiresAt: string;
  userId: string;
  email: string;
  name: string;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  /** The providers the user can sign in with (better-auth's account rows). */
  signInProviders: string[];
  member: Record<string, unknown> | null;
  organization: Record<string, unknown> | null;
}

/** A table row from its JSON form (`to_jsonb`): properties by Drizzle name, timestamps as dates. */
function rowFromJson<T extends typeof schema.member | typeof schema.organization>(
  table: T,
  json: Record<string, unknown>,
): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [property, column] of Object.entries(getTableColumns(table))) {
    const value = json[column.name] ?? null;
    row[property] = value !== null && column.columnType === 'PgTimestamp' ? new Date(value as string) : value;
  }
  return row as T['$inferSelect'];
}

export interface SessionUser {
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  emailVerified: boolean;
  /** The user has confirmed an authenticator app, so password and Google sign-ins ask for a code. */
  twoFactorEnabled: boolean;
  /** The providers the user can sign in with, e.g. `credential` for a password (better-auth's account rows). */
  signInProviders: string[];
  /**
   * The organisation requires a second factor, the user signs in with a password or Google and has
   * none yet: the session may only enrol one (and read the account, and sign out) until then.
   */
  twoFactorEnrolmentRequired: boolean;
  /** The caller's organisation membership, read with the session; absent until it is created. */
  membership: Membership | undefined;
}

const SECURE_COOKIE_NAME = `__Secure-${SESSION_COOKIE_NAME}`;

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/** The lookup function (migration 0014), which reads the tables `SESSION_LOOKUP_TABLES` names. */
const SESSION_LOOKUP: NamedStatement = {
  name: 'portal_session_lookup',
  text: 'select portal_session_lookup($1, $2) as found',
};

/** A session user no request can change: one answer serves every request of the session while kept. */
function frozen(user: SessionUser): SessionUser {
  if (user.membership) {
    Object.freeze(user.membership.member);
    Object.freeze(user.membership.organization);
    Object.freeze(user.membership);
  }
  Object.freeze(user.signInProviders);
  return Object.freeze(user);
}

/**
 * The session check every API request makes. better-auth's own getSession measured 100–270
 * requests/s here, so this verifies the signed session cookie (HMAC-SHA256, as better-auth signs
 * it) or the 1-hour bearer JWT locally, then makes one indexed lookup that also reads the caller's
 * membership, which every portal endpoint needs for its organisation scope. The lookup's answers
 * are kept in `cache` while the database reports no change to what they were read from.
 */
export class SessionVerifier {
  /** Subscribed to the database's session changes by the authenticate plugin once the server is ready. */
  readonly cache = new SessionCache<SessionUser>();
  private readonly hmacKey: Buffer;
  private jwks: ReturnType<typeof createLocalJWKSet> | undefined;
  /**
   * The one session cookie that counts: on https only the `__Secure-` one, which only a secure
   * response can set, so a plain cookie planted over http or by a sibling host is never read.
   */
  private readonly cookieName: string;

  constructor(
    private readonly database: Pick<Database, 'db' | 'query'>,
    secret: string,
    private readonly issuer: string,
  ) {
    this.cookieName = issuer.startsWith('https:') ? SECURE_COOKIE_NAME : SESSION_COOKIE_NAME;
    this.hmacKey = Buffer.from(secret, 'utf8');
  }

  /** The session token inside a signed cookie value, or undefined when the signature is wrong. */
  tokenFromCookieValue(raw: string): string | undefined {
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    const dot = value.lastIndexOf('.');
    if (dot < 1) return undefined;
    const token = value.slice(0, dot);
    const signature = Buffer.from(value.slice(dot + 1), 'base64');
    const expected = crypto.createHmac('sha256', this.hmacKey).update(token).digest();
    if (signature.length !== expected.length || !crypto.timingSafeEqual(signature, expected))
      return undefined;
    return token;
  }

  async fromHeaders(headers: { cookie?: string; authorization?: string }): Promise<SessionUser | undefined> {
    const bearer = headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
    if (bearer) return this.fromAccessToken(bearer);
    const raw = readCookie(headers.cookie, this.cookieName);
    if (!raw) return undefined;
    const token = this.tokenFromCookieValue(raw);
    return token ? this.lookup('token', token) : undefined;
  }

  /**
   * The live session with this id (the `sid` of an access token), for the regions' re-check; a
   * session that must first enrol a second factor opens nothing in a region.
   */
  async fromSessionId(sessionId: string): Promise<SessionUser | undefined> {
    const user = await this.lookup('id', sessionId);
    return user?.twoFactorEnrolmentRequired ? undefined : user;
  }

  private async fromAccessToken(token: string): Promise<SessionUser | undefined> {
    const payload = await this.verifyAccessToken(token);
    const sessionId = typeof payload?.sid === 'string' ? payload.sid : undefined;
    return sessionId ? this.lookup('id', sessionId) : undefined;
  }

  /** Verifies a portal access token against the portal's own JWKS; undefined when invalid or expired. */
  async verifyAccessToken(token: string) {
    for (const refresh of [false, true]) {
      const keySet = await this.keySet(refresh);
      try {
        const { payload } = await jwtVerify(token, keySet, { issuer: this.issuer, audience: this.issuer });
        return payload;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== 'ERR_JWKS_NO_MATCHING_KEY' || refresh) return undefined;
      }
    }
    return undefined;
  }

  private async keySet(refresh: boolean) {
    if (!this.jwks || refresh) {
      const rows = await this.database.db
        .select({ id: schema.jwks.id, publicKey: schema.jwks.publicKey })
        .from(schema.jwks);
      const keys: JSONWebKeySet = {
        keys: rows.map((row) => ({ ...(JSON.parse(row.publicKey) as object), kid: row.id })),
      };
      this.jwks = createLocalJWKSet(keys);
    }
    return this.jwks;
  }

  /**
   * Session, user and membership in one indexed lookup, through a function whose plan the database
   * keeps; or the answer kept from an earlier one.
   */
  private lookup(by: 'token' | 'id', key: string): Promise<SessionUser | undefined> {
    return this.cache.read(`${by}:${key}`, async () => {
      const [token, id] = by === 'token' ? [key, null] : [null, key];
      // Both drivers parse the jsonb it answers.
      const rows = await this.database.query<{ found: LookupJson | null }>(SESSION_LOOKUP, [token, id]);
      const found = rows[0]?.found;
      return found
        ? { value: frozen(sessionUserOf(found)), usableUntil: Date.parse(found.expiresAt) }
        : undefined;
    });
  }
}

function sessionUserOf(found: LookupJson): SessionUser {
  const { member, organization, expiresAt: _expiresAt, ...user } = found;
  return {
    ...user,
    twoFactorEnrolmentRequired: organization?.require_two_factor === true && mustEnrolWhenRequired(user),
    membership:
      member && organization
        ? {
            member: rowFromJson(schema.member, member),
            organization: rowFromJson(schema.organization, organization),
          }
        : undefined,
  };
}
