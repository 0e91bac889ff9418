import type { ErrorCode } from '@portal/contracts';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE_NAME } from '../../auth/auth.ts';
import { codeAttempts, type CodePurpose } from '../../auth/code-attempts.ts';
import type { SessionVerifier } from '../../auth/session.ts';
import { providerIdOfReturn } from '../../auth/sso.ts';
import { AppError } from '../../errors.ts';
import type { PortalMetrics } from '../../plugins/metrics.ts';
import type { RateLimits } from '../../plugins/rate-limits.ts';
import { requestOrigin } from '../audit-log/request-origin.ts';
import { withRequestOrigin } from './identity-audit.ts';

interface EnabledEndpoint {
  method: 'GET' | 'POST';
  /** Why the portal needs it; docs/security.md lists the same endpoints. */
  use: string;
  /** Limits and guards applied before better-auth sees the request. */
  guard?: (context: GuardContext) => Promise<void> | void;
  /** Runs after better-auth answered (for limits that count only failures). */
  after?: (context: GuardContext, status: number) => Promise<void> | void;
  /**
   * Where a browser comes back from an identity provider: a refusal is a redirect to /sign-in-sso
   * with its message (as the SSO plugin's own refusals are), not a JSON page.
   */
  browserReturn?: true;
}

interface GuardContext {
  request: FastifyRequest;
  reply: FastifyReply;
  email: string | undefined;
  limits: RateLimits;
  metrics: PortalMetrics;
  attempts: ReturnType<typeof codeAttempts>;
  sessions: SessionVerifier;
}

function checkCode(endpoint: string, purpose: CodePurpose) {
  return async ({ request, reply, email, limits, attempts }: GuardContext) => {
    await limits.perIp(request, reply, endpoint);
    if (!email) return;
    await limits.perAddress(reply, endpoint, email);
    if (!(await attempts.admit(purpose, email))) throw new AppError('TOO_MANY_ATTEMPTS');
  };
}

/** Options of better-auth's second-factor endpoints that the portal does not offer. */
function refuseBodyFields(request: FastifyRequest, fields: readonly string[]) {
  const body = request.body;
  if (!body || typeof body !== 'object') return;
  const offered = fields.find((field) => (body as Record<string, unknown>)[field] !== undefined);
  if (offered)
    throw new AppError('VALIDATION_ERROR', { message: `${offered} is not offered.`, field: offered });
}

/**
 * A second-factor code: limited per client IP here; better-auth allows 5 wrong codes per sign-in and
 * locks the account after 10 wrong codes in a row (two-factor.ts). Trusting a device, which would
 * skip the second factor for 30 days, is not offered.
 */
async function checksSecondFactor({ request, reply, limits }: GuardContext) {
  await limits.perIp(request, reply, 'two-factor-code');
  refuseBodyFields(request, ['trustDevice', 'disableSession']);
}

/** Turning the second factor on or off checks the password: limited per client IP and per account. */
async function checksPasswordOfSession({ request, reply, limits, sessions }: GuardContext) {
  await limits.perIp(request, reply, 'two-factor-password');
  const user = await sessions.fromHeaders(request.headers);
  if (user) await limits.perAddress(reply, 'two-factor-password', user.email);
}

function sendsMail(endpoint: string, kind: Parameters<RateLimits['mail']>[2]) {
  return async ({ request, reply, email, limits }: GuardContext) => {
    await limits.perIp(request, reply, endpoint);
    await limits.mail(request, reply, kind, email ? [email] : []);
  };
}

/**
 * The better-auth endpoints the portal uses; every other path better-auth or its plugins define
 * (sign-in by mailed code, change-password, update-user, …) answers 404 before better-auth sees it.
 */
export const ENABLED_AUTH_ENDPOINTS: Record<string, EnabledEndpoint> = {
  '/sign-up/email': {
    method: 'POST',
    use: 'sign-up with a corporate address',
    guard: sendsMail('sign-up', 'sign-up'),
  },
  '/sign-in/email': {
    method: 'POST',
    use: 'sign-in with email and password',
    guard: async ({ request, reply, email, limits }) => {
      await limits.perIp(request, reply, 'sign-in');
      if (email) await limits.beforeSignIn(request, reply, email);
    },
    after: async ({ request, email, limits, metrics }, status) => {
      if (email && status === 401) await limits.signInFailed(request, email);
      if (status === 401) metrics.signInFailed();
    },
  },
  '/sign-out': { method: 'POST', use: 'sign-out (/logout)' },
  '/email-otp/send-verification-otp': {
    method: 'POST',
    use: 'resend the verification code (/verify-email, /email-expired); only type email-verification',
    guard: sendsMail('send-verification', 'verification'),
  },
  '/email-otp/verify-email': {
    method: 'POST',
    use: 'confirm the address with the mailed code (/confirm-user)',
    guard: checkCode('verify-email', 'email-verification'),
  },
  '/email-otp/request-password-reset': {
    method: 'POST',
    use: 'mail a password reset code (/password/reset)',
    guard: sendsMail('request-password-reset', 'password-reset'),
  },
  '/email-otp/reset-password': {
    method: 'POST',
    use: 'set a new password with the mailed code (/password/renew)',
    guard: checkCode('reset-password', 'forget-password'),
  },
  '/two-factor/enable': {
    method: 'POST',
    use: 'start two-factor enrolment: the authenticator secret and 10 backup codes (/edit-profile)',
    guard: checksPasswordOfSession,
  },
  '/two-factor/verify-totp': {
    method: 'POST',
    use: 'confirm enrolment with a first code, or give the second factor at sign-in',
    guard: checksSecondFactor,
  },
  '/two-factor/verify-backup-code': {
    method: 'POST',
    use: 'give a backup code instead at sign-in (each works once)',
    guard: checksSecondFactor,
  },
  '/two-factor/disable': {
    method: 'POST',
    use: 'turn two-factor authentication off (/edit-profile)',
    guard: checksPasswordOfSession,
  },
  '/token': {
    method: 'GET',
    use: 'the 1-hour access token that opens a regional session',
    // A session that must first enrol a second factor opens nothing else.
    guard: async ({ request, sessions }) => {
      if ((await sessions.fromHeaders(request.headers))?.twoFactorEnrolmentRequired)
        throw new AppError('TWO_FACTOR_ENROLMENT_REQUIRED');
    },
  },
  '/jwks': { method: 'GET', use: 'the public keys regions verify access tokens with' },
};

/**
 * Added only when Google sign-in is configured. Google is an OpenID client of better-auth's
 * generic-oauth plugin, which has no endpoints of its own: it signs in through these two.
 */
export const GOOGLE_ENDPOINTS: Record<string, EnabledEndpoint> = {
  '/sign-in/social': {
    method: 'POST',
    use: 'start Google sign-in (the redirect flow only)',
    guard: async ({ request, reply, limits }) => {
      await limits.perIp(request, reply, 'sign-in-social');
      // better-auth would also sign in with a Google ID token posted here; the portal signs in only
      // through Google's redirect, whose state, PKCE and nonce tie the token to this browser.
      const body = request.body as { idToken?: unknown } | null | undefined;
      if (body && typeof body === 'object' && body.idToken !== undefined)
        throw new AppError('VALIDATION_ERROR', {
          message: 'Sign-in with an ID token is not offered.',
          field: 'idToken',
        });
    },
  },
  '/callback/google': { method: 'GET', use: "Google's redirect back to the portal" },
};

/**
 * Organisation single sign-on (the SSO plugin): starting it by the organisation's SSO domain and the
 * identity provider's way back. The provider id in a path is the organisation's (sso.ts).
 */
export const SSO_ENDPOINTS: Record<string, EnabledEndpoint> = {
  '/sign-in/sso': {
    method: 'POST',
    use: "start an organisation's single sign-on (/sign-in-sso)",
    guard: ({ request, reply, limits }) => limits.perIp(request, reply, 'sign-in-sso'),
  },
  '/sso/callback/:providerId': {
    method: 'GET',
    use: "an OpenID identity provider's redirect back to the portal",
    browserReturn: true,
  },
  '/sso/saml2/sp/acs/:providerId': {
    method: 'POST',
    use: "a SAML identity provider's signed answer, posted by the browser (the assertion consumer service)",
    browserReturn: true,
  },
  '/sso/saml2/sp/metadata': { method: 'GET', use: "the portal's SAML service-provider metadata" },
};

/** The enabled endpoint a path under /api/auth names, the provider id of an SSO return standing for its pattern. */
function enabledEndpoint(endpoints: Record<string, EnabledEndpoint>, pathname: string) {
  const providerId = providerIdOfReturn(pathname);
  const path = pathname.slice('/api/auth'.length);
  return endpoints[providerId ? path.replace(/[^/]+$/, ':providerId') : path];
}

/** The web page an identity provider's refused return lands on, with the message it shows (§8). */
function ssoErrorPage(publicUrl: string, status: number, payload: Buffer | null): string {
  const body = parseObject(payload);
  const code = typeof body.code === 'string' && body.code ? body.code : (CODE_FOR_STATUS[status] ?? 'BAD_REQUEST');
  const message = typeof body.message === 'string' && body.message ? body.message : code;
  return `${publicUrl}/sign-in-sso?${new URLSearchParams({ error: code, error_description: message })}`;
}

/**
 * What the SSO plugin's refusals without a description mean to a person: /sign-in-sso shows the
 * description (§8), and the plugin's bare codes would leave it blank.
 */
const SSO_REFUSAL_TEXT: Record<string, string> = {
  account_not_linked:
    'This email already has a portal account that your identity provider may not sign in to. Sign in with your password, or ask your administrator.',
  signup_disabled: 'Your identity provider may not create new portal accounts. Ask your administrator.',
};

/** A redirect of an identity provider's return to an error, with a description the page can show. */
function describedSsoRefusal(location: string, publicUrl: string): string {
  const url = new URL(location, publicUrl);
  const error = url.searchParams.get('error');
  if (!error || url.searchParams.get('error_description')) return location;
  const key = error.replace(/\s+/g, '_');
  url.searchParams.set('error_description', SSO_REFUSAL_TEXT[key] ?? key);
  return url.origin === publicUrl ? `${url.pathname}${url.search}` : url.toString();
}

/** The parsed body again as JSON; one nested too deeply to serialise is refused, not a 500. */
function serializeBody(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    if (error instanceof RangeError)
      throw new AppError('VALIDATION_ERROR', { message: 'The request body is nested too deeply.' });
    throw error;
  }
}

function emailOf(body: unknown): string | undefined {
  const email = (body as { email?: unknown } | null)?.email;
  return typeof email === 'string' && email.trim() ? email.trim().toLowerCase() : undefined;
}

const CODE_FOR_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/**
 * better-auth's error answers in the portal's `{code, message}` shape: its own codes are kept (the
 * web app maps them), a missing code or message is filled in from the status, and a 5xx is logged
 * and answered as the portal's internal error.
 */
function portalErrorBody(status: number, payload: Buffer | null, log: FastifyBaseLogger): Buffer {
  const body = parseObject(payload);
  if (status >= 500) {
    log.error({ status, body }, 'identity endpoint failed');
    return Buffer.from(JSON.stringify(new AppError('INTERNAL_ERROR').toBody()));
  }
  const fallback = CODE_FOR_STATUS[status] ?? 'BAD_REQUEST';
  const code = typeof body.code === 'string' && body.code ? body.code : fallback;
  const message =
    typeof body.message === 'string' && body.message ? body.message : new AppError(fallback).message;
  return Buffer.from(JSON.stringify({ ...body, code, message }));
}

/** The JSON object in a payload, or an empty one when it is empty, not JSON or not an object. */
function parseObject(payload: Buffer | null): Record<string, unknown> {
  if (!payload || payload.length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(payload.toString('utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * On https only the `__Secure-` session cookie may count: a plain one could have been planted by a
 * sibling host or over http, so it is dropped before better-auth reads the cookies.
 */
function withoutPlainSessionCookie(cookie: string): string {
  return cookie
    .split(';')
    .filter((part) => !part.trim().startsWith(`${SESSION_COOKIE_NAME}=`))
    .join(';');
}

/** Mounts better-auth's fetch handler under /api/auth: only the enabled endpoints, each behind its limits. */
export async function identityRoutes(app: FastifyInstance) {
  const { auth, config, rateLimits: limits } = app;
  const attempts = codeAttempts(app.database.db);
  const endpoints = {
    ...ENABLED_AUTH_ENDPOINTS,
    ...SSO_ENDPOINTS,
    ...(config.google ? GOOGLE_ENDPOINTS : {}),
  };
  const secureCookies = config.publicUrl.startsWith('https:');
  // A SAML answer comes as an HTML form's post; it is passed on to better-auth as it came.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );

  app.route({
    method: ['GET', 'POST'],
    url: '/*',
    async handler(request, reply) {
      const url = new URL(request.url, config.publicUrl);
      const endpoint = enabledEndpoint(endpoints, url.pathname);
      if (!endpoint || endpoint.method !== request.method) throw new AppError('NOT_FOUND');
      const context: GuardContext = {
        request,
        reply,
        email: emailOf(request.body),
        limits,
        metrics: app.metrics,
        attempts,
        sessions: app.sessions,
      };
      await endpoint.guard?.(context);

      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (value === undefined) continue;
        const joined = Array.isArray(value) ? value.join(', ') : value;
        headers.set(name, name === 'cookie' && secureCookies ? withoutPlainSessionCookie(joined) : joined);
      }
      const body =
        request.method !== 'POST' || request.body === undefined
          ? undefined
          : typeof request.body === 'string'
            ? request.body
            : serializeBody(request.body);
      // The sign-ins, sign-outs and second factors better-auth records name this request's origin.
      const response = await withRequestOrigin(requestOrigin(request), () =>
        auth.handler(new Request(url, { method: request.method, headers, body })),
      );
      await endpoint.after?.(context, response.status);
      const payload = response.body ? Buffer.from(await response.arrayBuffer()) : null;
      reply.status(response.status);
      response.headers.forEach((value, name) => {
        if (name !== 'set-cookie' && name !== 'content-length') reply.header(name, value);
      });
      const location = response.headers.get('location');
      if (endpoint.browserReturn && location) reply.header('location', describedSsoRefusal(location, config.publicUrl));
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      if (response.status >= 400 && endpoint.browserReturn) {
        request.log.warn({ status: response.status, body: parseObject(payload) }, 'single sign-on refused');
        return reply.status(302).redirect(ssoErrorPage(config.publicUrl, response.status, payload));
      }
      if (response.status >= 400) {
        reply.header('content-type', 'application/json; charset=utf-8');
        return reply.send(portalErrorBody(response.status, payload, request.log));
      }
      return reply.send(payload);
    },
  });
}
