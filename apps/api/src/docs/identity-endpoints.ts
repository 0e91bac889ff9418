import {
  ACCESS_TOKEN_TTL_SECONDS,
  PasswordResetRequestSchema,
  ResendVerificationRequestSchema,
  SignInRequestSchema,
  SignUpRequestSchema,
  emailField,
  strongPasswordField,
} from '@portal/contracts';
import { z } from 'zod';
import { OTP_TTL_SECONDS, SESSION_COOKIE_NAME } from '../auth/auth.ts';
import {
  BACKUP_CODE_COUNT,
  SECOND_FACTOR_LOCKOUT_AFTER,
  SECOND_FACTOR_LOCKOUT_SECONDS,
  SECOND_FACTOR_PAGE,
  SECOND_FACTOR_TTL_SECONDS,
} from '../auth/two-factor.ts';

/**
 * One better-auth endpoint as the portal serves it under /api/auth. better-auth's handler is a
 * single wildcard route, so the document cannot learn these from the routes: they are written
 * here, from the contracts' schemas where the portal's forms have one, and from what better-auth
 * answers otherwise (test/api-docs.test.ts checks every answer below against a real call).
 */
export interface IdentityEndpoint {
  method: 'GET' | 'POST';
  summary: string;
  description: string;
  /** Path parameters, named as `{name}` in the endpoint's path. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** How the body is sent: JSON unless an HTML form posts it. */
  bodyMediaType?: 'application/x-www-form-urlencoded';
  /** The success answer: its status, what it means, and its body when it has one. */
  success: { status: number; description: string; body?: z.ZodType };
}

const code = z.string().describe('The six-digit code from the mail.');

const IdentityUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  image: z.string().nullable(),
  emailVerified: z.boolean(),
  twoFactorEnabled: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

const SuccessSchema = z.object({ success: z.literal(true) });

const sessionCookie =
  `Sets the HttpOnly session cookie \`${SESSION_COOKIE_NAME}\` (\`__Secure-\` prefixed on https), ` +
  'good for 7 days and renewed daily while used.';
const secondFactorLimits =
  `A sign-in waits ${SECOND_FACTOR_TTL_SECONDS / 60} minutes for its second factor and allows 5 wrong codes ` +
  `(then 400 TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: sign in again); ${SECOND_FACTOR_LOCKOUT_AFTER} wrong codes ` +
  `in a row lock the account's second factor for ${SECOND_FACTOR_LOCKOUT_SECONDS / 60} minutes (429 ` +
  'ACCOUNT_TEMPORARILY_LOCKED). Limited per client IP too (429 RATE_LIMITED).';
const secondFactorSignedIn = z.object({
  token: z.string().describe('The session token the cookie carries.'),
  user: IdentityUserSchema,
});
const passwordOfAccount = z
  .string()
  .optional()
  .describe('The account password; required when the account has one (not for Google-only accounts).');

const codeLifetime =
  `A code lasts ${OTP_TTL_SECONDS / 60} minutes and allows 5 wrong guesses; ` +
  'after that a new one has to be mailed.';

/** The endpoints of auth.routes.ts's ENABLED_AUTH_ENDPOINTS, by their path under /api/auth. */
export const IDENTITY_ENDPOINTS: Record<string, IdentityEndpoint> = {
  '/sign-up/email': {
    method: 'POST',
    summary: 'Sign up',
    description:
      'Creates an account and mails a verification code. The address must be corporate (a free-mail ' +
      'address is refused with CORPORATE_EMAIL_REQUIRED) and the password must meet the policy. An ' +
      'address that already has an account gets the same answer and a mail saying so, so the answer ' +
      'does not tell which addresses are registered.',
    body: SignUpRequestSchema.extend({
      name: z
        .string()
        .trim()
        .min(1)
        .max(255)
        .describe('The display name; the web app sends the part of the address before the @.'),
    }),
    success: {
      status: 200,
      description:
        'The account, not yet verified; no session until the address is verified and the user signs in.',
      body: z.object({ token: z.null(), user: IdentityUserSchema }),
    },
  },
  '/email-otp/send-verification-otp': {
    method: 'POST',
    summary: 'Mail a new verification code',
    description: `Mails a new code that verifies the address. ${codeLifetime}`,
    body: ResendVerificationRequestSchema.extend({ type: z.literal('email-verification') }),
    success: {
      status: 200,
      description: 'Mailed, or nothing to do for an unknown address.',
      body: SuccessSchema,
    },
  },
  '/email-otp/verify-email': {
    method: 'POST',
    summary: 'Verify the address',
    description: `Confirms the address with the mailed code; the user signs in afterwards. ${codeLifetime}`,
    body: z.object({ email: emailField, otp: code }),
    success: {
      status: 200,
      description: 'Verified.',
      body: z.object({ status: z.literal(true), token: z.string().nullable(), user: IdentityUserSchema }),
    },
  },
  '/sign-in/email': {
    method: 'POST',
    summary: 'Sign in',
    description:
      `${sessionCookie} A wrong address or password answers 401 INVALID_EMAIL_OR_PASSWORD; an ` +
      'unverified address 403 EMAIL_NOT_VERIFIED. Repeated failures are limited per address and per client. ' +
      'A user with two-factor authentication gets no session yet: the answer says `twoFactorRedirect` and a ' +
      'short-lived challenge cookie is set, which /two-factor/verify-totp or /two-factor/verify-backup-code ' +
      'turns into a session.',
    body: SignInRequestSchema,
    success: {
      status: 200,
      description: 'Signed in, or the password is right and the second factor is asked for.',
      body: z.union([
        z.object({
          redirect: z.literal(false),
          token: z.string().describe('The session token the cookie carries.'),
          user: IdentityUserSchema,
        }),
        z.object({
          twoFactorRedirect: z.literal(true),
          twoFactorMethods: z.array(z.literal('totp')).describe('The authenticator app.'),
        }),
      ]),
    },
  },
  '/two-factor/enable': {
    method: 'POST',
    summary: 'Start two-factor enrolment',
    description:
      'Needs the session cookie. Makes a new authenticator secret and backup codes; nothing changes at ' +
      'sign-in until /two-factor/verify-totp confirms a first code. Refused (TOTP_ALREADY_ENABLED) when ' +
      'two-factor authentication is on; a wrong password answers 400 INVALID_PASSWORD.',
    body: z.object({ password: passwordOfAccount }),
    success: {
      status: 200,
      description: `The secret as an otpauth:// URI (for the QR code; its \`secret\` parameter is the key to type) and the ${BACKUP_CODE_COUNT} backup codes, shown this once.`,
      body: z.object({
        method: z.literal('totp'),
        totpURI: z.string(),
        backupCodes: z.array(z.string()).length(BACKUP_CODE_COUNT),
      }),
    },
  },
  '/two-factor/verify-totp': {
    method: 'POST',
    summary: 'Give an authenticator code',
    description:
      'With the session cookie, confirms enrolment: two-factor authentication is on from here, and the ' +
      `session cookie is replaced. After a sign-in that asked for it (the web's ${SECOND_FACTOR_PAGE} page), ` +
      `finishes the sign-in. ${sessionCookie} A wrong code answers 401 INVALID_CODE. ${secondFactorLimits}`,
    body: z.object({ code: z.string().describe('The six digits the app shows now.') }),
    success: { status: 200, description: 'Verified.', body: secondFactorSignedIn },
  },
  '/two-factor/verify-backup-code': {
    method: 'POST',
    summary: 'Give a backup code',
    description:
      `Instead of an authenticator code, after a sign-in that asked for one; each backup code works once. ` +
      `${sessionCookie} A wrong or used code answers 401 INVALID_BACKUP_CODE. ${secondFactorLimits}`,
    body: z.object({ code: z.string().describe('One of the backup codes, as shown (xxxxx-xxxxx).') }),
    success: { status: 200, description: 'Signed in.', body: secondFactorSignedIn },
  },
  '/two-factor/disable': {
    method: 'POST',
    summary: 'Turn two-factor authentication off',
    description:
      'Needs the session cookie. Deletes the secret and backup codes; the session cookie is replaced. A ' +
      'wrong password answers 400 INVALID_PASSWORD. If the organisation requires two-factor ' +
      'authentication, the member is led to set it up again.',
    body: z.object({ password: passwordOfAccount }),
    success: { status: 200, description: 'Off.', body: z.object({ status: z.literal(true) }) },
  },
  '/sign-out': {
    method: 'POST',
    summary: 'Sign out',
    description: 'Ends the session of the cookie sent with the call and clears the cookie.',
    body: z.object({}).describe('An empty object.'),
    success: { status: 200, description: 'Signed out.', body: SuccessSchema },
  },
  '/email-otp/request-password-reset': {
    method: 'POST',
    summary: 'Mail a password reset code',
    description: `Mails a code that lets the user set a new password. ${codeLifetime}`,
    body: PasswordResetRequestSchema,
    success: {
      status: 200,
      description: 'Mailed; an unknown address gets the same answer and no mail.',
      body: SuccessSchema,
    },
  },
  '/email-otp/reset-password': {
    method: 'POST',
    summary: 'Set a new password with the mailed code',
    description: `The new password must meet the sign-up policy; the account's sessions end. ${codeLifetime}`,
    body: PasswordResetRequestSchema.extend({ otp: code, password: strongPasswordField }),
    success: { status: 200, description: 'The password is changed.', body: SuccessSchema },
  },
  '/token': {
    method: 'GET',
    summary: 'Access token',
    description:
      `Needs the session cookie (not one that must first enrol a second factor: 403 ` +
      `TWO_FACTOR_ENROLMENT_REQUIRED). Answers a ${ACCESS_TOKEN_TTL_SECONDS / 60}-minute access token (a JWT ` +
      'signed with a key from /api/auth/jwks): the regions open a console session with it, and a ' +
      'client without cookies sends it to the portal API as `Authorization: Bearer <token>`.',
    success: { status: 200, description: 'The access token.', body: z.object({ token: z.string() }) },
  },
  '/jwks': {
    method: 'GET',
    summary: 'Public keys of the access tokens',
    description: 'The JSON Web Key Set that verifies the access tokens of /api/auth/token.',
    success: {
      status: 200,
      description: 'The key set.',
      body: z.object({
        keys: z.array(
          z.object({ kty: z.string(), crv: z.string(), x: z.string(), alg: z.string(), kid: z.string() }),
        ),
      }),
    },
  },
};

/** What an OpenID provider's redirect back to the portal carries. */
const identityProviderReturn = z.object({
  state: z.string().optional(),
  code: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

/** Served only when Google sign-in is configured (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET). */
export const GOOGLE_IDENTITY_ENDPOINTS: Record<string, IdentityEndpoint> = {
  '/sign-in/social': {
    method: 'POST',
    summary: 'Start Google sign-in',
    description:
      "Answers Google's sign-in address for the browser to open; Google sends the browser back to " +
      '/api/auth/callback/google. The callback addresses must be on the portal (paths such as `/`). A ' +
      'first sign-in creates the user, only with a corporate address that Google has verified; an address ' +
      'that already has a verified account is linked to it.',
    body: z.object({
      provider: z.literal('google'),
      callbackURL: z.string().optional().describe('Where the browser lands once signed in.'),
      errorCallbackURL: z
        .string()
        .optional()
        .describe('Where it lands when sign-in fails, with `error` in the query.'),
      newUserCallbackURL: z.string().optional().describe('Where a user signed in for the first time lands.'),
    }),
    success: {
      status: 200,
      description: "Google's sign-in address.",
      body: z.object({ url: z.url(), redirect: z.literal(true) }),
    },
  },
  '/callback/google': {
    method: 'GET',
    summary: 'Google sign-in callback',
    description: `Google's redirect back to the portal; not called by clients. ${sessionCookie}`,
    query: identityProviderReturn.extend({ state: z.string() }),
    success: {
      status: 302,
      description:
        'Redirects the browser to the address named when sign-in started (the error address, with ' +
        '`error` and `error_description`, when it failed: a new user with a free-mail address gets ' +
        '`error=CORPORATE_EMAIL_REQUIRED` and an `error_description` that contains it; one whose address ' +
        'Google has not verified `EMAIL_NOT_VERIFIED`; an address whose account is not verified yet ' +
        '`account_not_linked`). A callback without a state the portal issued goes to `/error`.',
    },
  },
};

const ssoProviderParams = z.object({
  providerId: z.string().describe("The organisation's identity provider: `sso-<organisation id>`."),
});

/**
 * Organisation single sign-on (decision 024): starting it by the organisation's SSO domain, and the
 * identity provider's ways back. Paths as the document writes them.
 */
export const SSO_IDENTITY_ENDPOINTS: Record<string, IdentityEndpoint> = {
  '/sign-in/sso': {
    method: 'POST',
    summary: "Start an organisation's single sign-on",
    description:
      "Answers the organisation's identity provider's sign-in address for the browser to open. The " +
      'organisation is named by its SSO domain (`/sign-in-sso`); an unknown domain is 404 ' +
      '`SSO_ORGANIZATION_NOT_FOUND`. The callback addresses must be on the portal (paths such as `/`).',
    body: z.object({
      organizationSlug: z.string().describe("The organisation's SSO domain (letters, digits, dashes)."),
      callbackURL: z.string().optional().describe('Where the browser lands once signed in.'),
      errorCallbackURL: z
        .string()
        .optional()
        .describe('Where it lands when sign-in is refused, with `error` and `error_description`.'),
    }),
    success: {
      status: 200,
      description: "The identity provider's sign-in address.",
      body: z.object({ url: z.url(), redirect: z.literal(true) }),
    },
  },
  '/sso/callback/{providerId}': {
    method: 'GET',
    summary: "An OpenID identity provider's redirect back",
    description: `The identity provider sends the browser here; not called by clients. ${sessionCookie}`,
    params: ssoProviderParams,
    query: identityProviderReturn,
    success: {
      status: 302,
      description:
        'Redirects the browser to the address named when sign-in started, or when refused to the error ' +
        'address (`/sign-in-sso`) with `error` and an `error_description`: `NOT_IN_WHITELIST`, ' +
        '`USER_LIMIT_REACHED`, `MEMBER_EMAIL_ALREADY_EXISTS_IN_OTHER_ORG`, a wrong state.',
    },
  },
  '/sso/saml2/sp/acs/{providerId}': {
    method: 'POST',
    summary: "A SAML identity provider's signed answer (assertion consumer service)",
    description:
      "The identity provider's page posts its answer here as a form; not called by clients. The " +
      'assertion must be signed, answer a request the portal made and be used once. ' +
      sessionCookie,
    params: ssoProviderParams,
    body: z.object({
      SAMLResponse: z.string().describe("The identity provider's answer, base64."),
      RelayState: z.string().optional(),
    }),
    bodyMediaType: 'application/x-www-form-urlencoded',
    success: {
      status: 302,
      description:
        'Redirects the browser to where sign-in was going, or when refused to a portal page with ' +
        '`error` and `error_description` (as the OpenID callback).',
    },
  },
  '/sso/saml2/sp/metadata': {
    method: 'GET',
    summary: "The portal's SAML service-provider metadata",
    description:
      "The XML an organisation's identity provider imports: the portal's entity id and assertion consumer service.",
    query: z.object({ providerId: ssoProviderParams.shape.providerId }),
    success: { status: 200, description: 'The metadata (application/xml).' },
  },
};
