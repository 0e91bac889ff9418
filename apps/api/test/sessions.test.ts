import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  SignJWT,
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  generateKeyPair,
  jwtVerify,
  type JSONWebKeySet,
} from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import {
  TEST_ORIGIN,
  bearerRequest,
  useTestApp,
  expectApiError,
  jsonRequest,
  setUpOrganization,
  signIn,
  signInRequest,
  signUpVerifiedUser,
} from './helper.ts';

const COOKIE_NAME = 'portal.session_token';

const testApp = useTestApp();
let app: FastifyInstance;

beforeAll(() => {
  app = testApp.app;
});

function me(headers: Record<string, string>) {
  return app.inject({ method: 'GET', url: '/api/v1/accounts/me', headers });
}

async function accessToken(cookie: string): Promise<string> {
  const response = await app.inject(jsonRequest('GET', '/api/auth/token', undefined, cookie));
  expect(response.statusCode).toBe(200);
  return (response.json() as { token: string }).token;
}

async function publishedKeys(): Promise<JSONWebKeySet> {
  const response = await app.inject({ method: 'GET', url: '/api/auth/jwks' });
  expect(response.statusCode).toBe(200);
  return response.json() as JSONWebKeySet;
}

function signCookie(token: string, secret: string) {
  const signature = crypto.createHmac('sha256', secret).update(token).digest('base64');
  return `${COOKIE_NAME}=${encodeURIComponent(`${token}.${signature}`)}`;
}

function base64UrlJson(value: unknown) {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('the session cookie', () => {
  it('is HttpOnly and SameSite', async () => {
    await signUpVerifiedUser(app, 'cookie@acme.io');
    const response = await signInRequest(app, 'cookie@acme.io');
    const setCookie = [response.headers['set-cookie']].flat().find((c) => c?.startsWith(`${COOKIE_NAME}=`));
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(setCookie).toMatch(/;\s*SameSite=Lax/i);
  });

  it('is required: without it the API answers 401 with the specification wording', async () => {
    const response = await me({});
    const body = expectApiError(response, 401, 'UNAUTHORIZED');
    expect(body).toEqual({ code: 'UNAUTHORIZED', message: 'No authorization token was found' });
  });

  it('authenticates while its signature is intact, and never once tampered with', async () => {
    const cookie = await signUpVerifiedUser(app, 'tamper@acme.io');
    expect((await me({ cookie })).statusCode).toBe(200);

    const value = decodeURIComponent(cookie.slice(`${COOKIE_NAME}=`.length));
    const dot = value.lastIndexOf('.');
    const token = value.slice(0, dot);
    const signature = value.slice(dot + 1);
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;

    const forgeries = [
      `${COOKIE_NAME}=${encodeURIComponent(`${token}.${flipped}`)}`,
      `${COOKIE_NAME}=${encodeURIComponent(`${token}x.${signature}`)}`,
      `${COOKIE_NAME}=${encodeURIComponent(token)}`,
      signCookie(token, 'another-secret-another-secret-another-secret'),
      `${COOKIE_NAME}=%E0%A4%A`,
    ];
    for (const forged of forgeries) expectApiError(await me({ cookie: forged }), 401, 'UNAUTHORIZED');

    // The check is the signature and the session row: a well-signed token without a session is refused too.
    const unknownToken = crypto.randomBytes(24).toString('base64url');
    expectApiError(await me({ cookie: signCookie(unknownToken, testApp.config.authSecret ?? '') }), 401);
    expect((await me({ cookie: signCookie(token, testApp.config.authSecret ?? '') })).statusCode).toBe(200);
  });

  it('stops working when its session expires', async () => {
    const cookie = await signUpVerifiedUser(app, 'expiring@acme.io');
    expect((await me({ cookie })).statusCode).toBe(200);
    const token = decodeURIComponent(cookie.slice(`${COOKIE_NAME}=`.length)).split('.')[0] ?? '';
    const updated = await testApp.database.db
      .update(schema.session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.session.token, token))
      .returning({ id: schema.session.id });
    expect(updated).toHaveLength(1);
    expectApiError(await me({ cookie }), 401, 'UNAUTHORIZED');
  });

  it('stops working after sign-out', async () => {
    const cookie = await signUpVerifiedUser(app, 'signout@acme.io');
    const token = await accessToken(cookie);
    const other = await signIn(app, 'signout@acme.io');
    expect((await me({ cookie })).statusCode).toBe(200);

    const signOut = await app.inject(jsonRequest('POST', '/api/auth/sign-out', {}, cookie));
    expect(signOut.statusCode).toBe(200);

    expectApiError(await me({ cookie }), 401, 'UNAUTHORIZED');
    expectApiError(await app.inject(bearerRequest('GET', '/api/v1/accounts/me', token)), 401, 'UNAUTHORIZED');
    // Signing out ends this session only.
    expect((await me({ cookie: other })).statusCode).toBe(200);
  });
});

describe('the bearer access token', () => {
  it('is a JWT verifiable with the published JWKS and works in place of the cookie', async () => {
    const cookie = await signUpVerifiedUser(app, 'bearer@acme.io');
    const token = await accessToken(cookie);

    const keys = await publishedKeys();
    expect(keys.keys.length).toBeGreaterThan(0);
    for (const key of keys.keys) {
      expect(key.kid).toBeTruthy();
      expect(key).not.toHaveProperty('d');
    }
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(keys), {
      issuer: TEST_ORIGIN,
      audience: TEST_ORIGIN,
    });
    expect(payload.email).toBe('bearer@acme.io');
    expect(typeof payload.sid).toBe('string');
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);
    expect(keys.keys.map((k) => k.kid)).toContain(protectedHeader.kid);

    const viaBearer = await app.inject(bearerRequest('GET', '/api/v1/accounts/me', token));
    expect(viaBearer.statusCode).toBe(200);
    const viaCookie = await me({ cookie });
    expect((viaBearer.json() as { memberId: string }).memberId).toBe((viaCookie.json() as { memberId: string }).memberId);
  });

  it('is refused when tampered with, expired or signed by another key', async () => {
    const victimToken = await accessToken(await signUpVerifiedUser(app, 'victim@acme.io'));
    const attackerCookie = await signUpVerifiedUser(app, 'attacker@acme.io');
    const token = await accessToken(attackerCookie);
    const claims = decodeJwt(token);
    const victimClaims = decodeJwt(victimToken);
    const [header, , signature] = token.split('.');

    const withVictimSession = `${header}.${base64UrlJson({ ...claims, sid: victimClaims.sid, sub: victimClaims.sub })}.${signature}`;
    const withLaterExpiry = `${header}.${base64UrlJson({ ...claims, exp: (claims.exp ?? 0) + 86_400 })}.${signature}`;
    const unsigned = `${base64UrlJson({ alg: 'none', typ: 'JWT' })}.${base64UrlJson(claims)}.`;

    const now = Math.floor(Date.now() / 1000);
    const signWithPortalKey = async (times: { iat: number; exp: number }) =>
      (
        (await app.auth.api.signJWT({
          body: { payload: { email: claims.email, sid: claims.sid, sub: claims.sub, ...times } },
        })) as { token: string }
      ).token;
    const expired = await signWithPortalKey({ iat: now - 7200, exp: now - 3600 });
    const stillValid = await signWithPortalKey({ iat: now, exp: now + 600 });

    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const foreign = await new SignJWT({ email: claims.email, sid: claims.sid })
      .setProtectedHeader({ alg: 'EdDSA', kid: decodeProtectedHeader(token).kid })
      .setSubject(String(claims.sub))
      .setIssuer(TEST_ORIGIN)
      .setAudience(TEST_ORIGIN)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);

    // Control: a token the portal signs for this session is accepted.
    expect((await app.inject(bearerRequest('GET', '/api/v1/accounts/me', stillValid))).statusCode).toBe(200);

    for (const bad of [withVictimSession, withLaterExpiry, unsigned, expired, foreign, 'not-a-jwt', `${token}x`]) {
      expectApiError(await app.inject(bearerRequest('GET', '/api/v1/accounts/me', bad)), 401, 'UNAUTHORIZED');
    }
  });
});

describe('the session lookup', () => {
  it('reads the member and organisation exactly as a direct query does, dates as dates', async () => {
    const cookie = await setUpOrganization(app, 'lookup@acme.io');
    const viaCookie = await testApp.app.sessions.fromHeaders({ cookie });
    const membership = viaCookie?.membership;
    expect(membership).toBeDefined();
    const [member] = await testApp.database.db.select().from(schema.member).where(eq(schema.member.id, membership!.member.id));
    const [organization] = await testApp.database.db
      .select()
      .from(schema.organization)
      .where(eq(schema.organization.id, membership!.organization.id));
    expect(membership!.member).toMatchObject({
      id: member!.id,
      organizationId: member!.organizationId,
      displayName: member!.displayName,
      roleId: member!.roleId,
      allApplications: member!.allApplications,
      lastLoginAt: member!.lastLoginAt,
    });
    expect(membership!.member.lastLoginAt).toBeInstanceOf(Date);
    expect(membership!.organization.trialEndAt).toBeInstanceOf(Date);
    const { privacyPolicyAcceptedAt: _p, termsAcceptedAt: _t, createdAt: _c, updatedAt: _u, ...organizationFields } = organization!;
    expect(membership!.organization).toMatchObject(organizationFields);
    expect(viaCookie).toMatchObject({ email: 'lookup@acme.io', emailVerified: true });
    const viaId = await testApp.app.sessions.fromSessionId(viaCookie!.sessionId);
    expect(viaId).toEqual(viaCookie);
  });
});
