import crypto from 'node:crypto';
import { and, eq, getTableColumns, gt, sql } from 'drizzle-orm';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type { Db } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import { SESSION_COOKIE_NAME } from './auth.ts';

// What a request needs of the caller's member and organisation rows: the lookup runs on every
// request, and each column read costs (most on PGlite, which parses every value in JavaScript).
const MEMBER_COLUMNS = {
  id: schema.member.id,
  organizationId: schema.member.organizationId,
  displayName: schema.member.displayName,
  roleId: schema.member.roleId,
  allApplications: schema.member.allApplications,
  lastLoginAt: schema.member.lastLoginAt,
};
const {
  privacyPolicyAcceptedAt: _privacyPolicyAcceptedAt,
  termsAcceptedAt: _termsAcceptedAt,
  createdAt: _createdAt,
  updatedAt: _updatedAt,
  ...ORGANIZATION_COLUMNS
} = getTableColumns(schema.organization);

type LookupRow = Awaited<ReturnType<ReturnType<typeof prepareSessionLookup>['execute']>>[number];

export interface Membership {
  member: NonNullable<LookupRow['member']>;
  organization: NonNullable<LookupRow['organization']>;
}

export interface SessionUser {
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  emailVerified: boolean;
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

/** Session, user and membership in one indexed lookup, by session token or by session id. */
function prepareSessionLookup(db: Db, by: 'token' | 'id') {
  return db
    .select({
      sessionId: schema.session.id,
      userId: schema.user.id,
      email: schema.user.email,
      name: schema.user.name,
      emailVerified: schema.user.emailVerified,
      member: MEMBER_COLUMNS,
      organization: ORGANIZATION_COLUMNS,
    })
    .from(schema.session)
    .innerJoin(schema.user, eq(schema.user.id, schema.session.userId))
    .leftJoin(schema.member, eq(schema.member.userId, schema.user.id))
    .leftJoin(schema.organization, eq(schema.organization.id, schema.member.organizationId))
    .where(and(eq(schema.session[by], sql.placeholder('key')), gt(schema.session.expiresAt, sql`now()`)))
    .limit(1)
    .prepare(`session_by_${by}`);
}

/**
 * The session check every API request makes. better-auth's own getSession measured 100–270
 * requests/s here, so this verifies the signed session cookie (HMAC-SHA256, as better-auth signs
 * it) or the 1-hour bearer JWT locally, then makes one prepared, indexed lookup that also reads the
 * caller's membership, which every portal endpoint needs for its organisation scope.
 */
export class SessionVerifier {
  private readonly hmacKey: Buffer;
  private readonly lookups: Record<'token' | 'id', ReturnType<typeof prepareSessionLookup>>;
  private jwks: ReturnType<typeof createLocalJWKSet> | undefined;
  /**
   * The one session cookie that counts: on https only the `__Secure-` one, which only a secure
   * response can set, so a plain cookie planted over http or by a sibling host is never read.
   */
  private readonly cookieName: string;

  constructor(
    private readonly db: Db,
    secret: string,
    private readonly issuer: string,
  ) {
    this.cookieName = issuer.startsWith('https:') ? SECURE_COOKIE_NAME : SESSION_COOKIE_NAME;
    this.hmacKey = Buffer.from(secret, 'utf8');
    this.lookups = { token: prepareSessionLookup(db, 'token'), id: prepareSessionLookup(db, 'id') };
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
    if (signature.length !== expected.length || !crypto.timingSafeEqual(signature, expected)) return undefined;
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

  /** The live session with this id (the `sid` of an access token), for the regions' re-check. */
  fromSessionId(sessionId: string): Promise<SessionUser | undefined> {
    return this.lookup('id', sessionId);
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
      const rows = await this.db.select({ id: schema.jwks.id, publicKey: schema.jwks.publicKey }).from(schema.jwks);
      const keys: JSONWebKeySet = {
        keys: rows.map((row) => ({ ...(JSON.parse(row.publicKey) as object), kid: row.id })),
      };
      this.jwks = createLocalJWKSet(keys);
    }
    return this.jwks;
  }

  private async lookup(by: 'token' | 'id', key: string): Promise<SessionUser | undefined> {
    const [row] = await this.lookups[by].execute({ key });
    if (!row) return undefined;
    const { member, organization, ...user } = row;
    return { ...user, membership: member && organization ? { member, organization } : undefined };
  }
}
