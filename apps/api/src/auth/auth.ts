import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  PasswordResetRequestSchema,
  ResendVerificationRequestSchema,
  SignUpRequestSchema,
  messageText,
  strongPasswordField,
} from '@portal/contracts';
import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { emailOTP } from 'better-auth/plugins/email-otp';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import { jwt } from 'better-auth/plugins/jwt';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Config, GoogleConfig } from '../config.ts';
import { isDatabaseUnavailable, type Db } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import { passwordResetMail, verificationMail } from '../mail/templates.ts';
import { codeAttempts } from './code-attempts.ts';
import { isFreeMailAddress } from './free-mail.ts';
import { signInFailures, withIdentityAudit, type IdentityAudit } from './sign-in-audit.ts';
import { portalSso, providerIdOfReturn, ssoDatabaseHooks, ssoMembership, withSsoAddressRules } from './sso.ts';
import { awaitsSecondFactor, portalTwoFactor, usedTotpCodes } from './two-factor.ts';

const SESSION_COOKIE_PREFIX = 'portal';
export const SESSION_COOKIE_NAME = `${SESSION_COOKIE_PREFIX}.session_token`;
export const OTP_TTL_SECONDS = 60 * 60;

// argon2id with OWASP's second recommended profile (19 MiB, 2 passes): ~20 ms per verify here.
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** The portal's password hash (argon2id), used by sign-up, reset, invitations and password changes alike. */
export function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, ARGON2_OPTIONS);
}

export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return argon2Verify(hash, password);
}

/** better-auth's provider id for email-and-password accounts. */
export const CREDENTIAL_PROVIDER_ID = 'credential';

/** better-auth's provider id for Google sign-in; its callback is /api/auth/callback/google. */
export const GOOGLE_PROVIDER_ID = 'google';

/** The refusal of a new Google user with a free-mail address; the error_description carries the code (§2). */
export const CORPORATE_EMAIL_REFUSAL = {
  error: 'CORPORATE_EMAIL_REQUIRED',
  errorDescription: `CORPORATE_EMAIL_REQUIRED: ${messageText('signupForm.email.validation.corporate.lambda.error')}`,
} as const;

/** A new Google user whose address Google has not verified is not created (it could be anyone's). */
export const UNVERIFIED_EMAIL_REFUSAL = {
  error: 'EMAIL_NOT_VERIFIED',
  errorDescription:
    'Google has not verified this email address. Verify it with Google, or sign up with your email.',
} as const;

/**
 * Google sign-in as an OpenID client: endpoints and signing keys are discovered from the issuer
 * (Google's, or a local provider in tests) when the portal starts, and ID tokens are verified.
 */
function googleSignIn(google: GoogleConfig) {
  return genericOAuth({
    config: [
      {
        providerId: GOOGLE_PROVIDER_ID,
        name: 'Google',
        discoveryUrl: google.discoveryUrl,
        requireIdTokenVerification: true,
        clientId: google.clientId,
        clientSecret: google.clientSecret,
        scopes: ['openid', 'email', 'profile'],
        prompt: 'select_account',
      },
    ],
  });
}

/** The rules of the forms behind these endpoints, held on the server exactly as in the forms. */
const FORM_SCHEMAS: Record<string, z.ZodType> = {
  '/sign-up/email': SignUpRequestSchema.extend({
    // The form checks the spec's seven providers; the server also refuses the maintained list (decision 032).
    email: SignUpRequestSchema.shape.email.refine(
      (email) => !isFreeMailAddress(email),
      'signupForm.email.validation.corporate.lambda.error',
    ),
    // The display name starts as the address's local part; it is stored, so it is bounded too.
    name: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(255, 'validation.tooLong'),
  }),
  // Only the verification code can be asked for: sign-in by mailed code is not a portal feature.
  '/email-otp/send-verification-otp': ResendVerificationRequestSchema.extend({
    type: z.literal('email-verification', { error: 'errors.validation' }),
  }),
  '/email-otp/request-password-reset': PasswordResetRequestSchema,
  // A reset must not weaken an account: the new password meets the sign-up policy (decision 002).
  '/email-otp/reset-password': PasswordResetRequestSchema.extend({
    otp: z.string({ error: 'validation.code.required' }).trim().min(1, 'validation.code.required'),
    password: strongPasswordField,
  }),
};

export interface AuthDeps {
  config: Config;
  db: Db;
  secret: string;
  mailer: Mailer;
  log: FastifyBaseLogger;
  audit: IdentityAudit;
}

/** The tables better-auth reads and writes, on the database or on a transaction of it. */
const ADAPTER_CONFIG = {
  provider: 'pg',
  schema: {
    user: schema.user,
    session: schema.session,
    account: schema.account,
    verification: schema.verification,
    jwks: schema.jwks,
    twoFactor: schema.twoFactor,
    ssoProvider: schema.ssoProvider,
  },
} as const;

export function portalName(config: Config): string {
  return `${config.productName} Developer Portal`;
}

export function createAuth({ config, db, secret, mailer, log, audit }: AuthDeps) {
  const sendMail = async (mail: Parameters<Mailer['send']>[0]) => {
    try {
      await mailer.send(mail);
    } catch (error) {
      // The user can ask for the mail again; a failing mail server must not fail sign-up or reset.
      log.error({ err: error, to: mail.to, subject: mail.subject }, 'mail delivery failed');
    }
  };
  const attempts = codeAttempts(db);
  const membership = ssoMembership(db, log, audit);
  const ssoHooks = ssoDatabaseHooks(membership);
  const usedCodes = usedTotpCodes(db, secret);
  const linkTo = (pathname: string, params: Record<string, string>) =>
    `${config.publicUrl}${pathname}?${new URLSearchParams(params).toString()}`;

  return betterAuth({
    appName: portalName(config),
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret,
    // Organisations' identity providers on a private network are fetched only when the operator
    // trusts their origin (the SSO plugin refuses non-public hosts otherwise).
    trustedOrigins: [config.publicUrl, ...config.ssoTrustedIdpOrigins],
    // SSO sign-ins' asserted addresses meet the portal's rules before the SSO plugin looks them up;
    // sign-ins, sign-outs and second factors commit with their audit entries.
    database: (options: BetterAuthOptions) =>
      withIdentityAudit(
        withSsoAddressRules(drizzleAdapter(db, ADAPTER_CONFIG)(options), membership),
        (tx) => drizzleAdapter(tx, ADAPTER_CONFIG)(options),
        db,
        audit,
      ),
    // Rate limits are applied by the portal's own limiter (per IP and per account).
    rateLimit: { enabled: false },
    // better-auth's messages go to the portal's log, at its level and in its format.
    logger: { log: (level, message, ...args) => log[level]({ details: args }, `identity: ${message}`) },
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      database: { generateId: () => crypto.randomUUID() },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: 12,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      password: {
        hash: hashPassword,
        verify: ({ hash, password }) => verifyPassword(hash, password),
      },
      onExistingUserSignUp: async ({ user }) => {
        await sendMail({
          to: user.email,
          subject: `You already have a ${portalName(config)} account`,
          text: `Someone tried to sign up with this address, which already has an account.\n\nSign in: ${config.publicUrl}/login\nForgot your password? ${config.publicUrl}/password/reset`,
          html: `<p>Someone tried to sign up with this address, which already has an account.</p><p><a href="${config.publicUrl}/login">Sign in</a> or <a href="${config.publicUrl}/password/reset">reset your password</a>.</p>`,
        });
      },
    },
    // A Google sign-in whose address matches an existing user links to that user only when Google
    // and the portal have both verified the address (better-auth's defaults; decision 021).
    // An organisation's identity provider is linked by address to an existing user only under the
    // SSO rules (sso.ts): a member of that organisation, or someone it invited, at a domain it proved
    // by DNS; new people come from its proven domains or allow-list. Nobody else is reached this way.
    account: {
      accountLinking: {
        enabled: true,
        requireLocalEmailVerified: true,
        trustedProviders: (request) => {
          const providerId = request && providerIdOfReturn(new URL(request.url).pathname);
          return providerId ? [providerId] : [];
        },
      },
    },
    // Failures without a page of their own (a callback without state) land on the web's /error.
    onAPIError: {
      errorURL: `${config.publicUrl}/error`,
      // A database being restarted goes on to the error handler (503, try again) instead of
      // becoming better-auth's 500; every other failure is logged as better-auth logs it.
      onError: (error, ctx) => {
        if (isDatabaseUnavailable(error)) throw error;
        if (!(error instanceof APIError)) ctx.logger.error(error instanceof Error ? error.name : '', error);
        else if (error.status === 'INTERNAL_SERVER_ERROR') ctx.logger.error(error.status, error);
      },
    },
    user: {
      // Users made by Google sign-in only: the form schemas above check email sign-up, and invited
      // users are created with their membership, not here.
      validateUserInfo: ({ user, source }) => {
        if (source.action !== 'create-user' || source.oauth?.providerId !== GOOGLE_PROVIDER_ID) return;
        if (typeof user.email !== 'string' || isFreeMailAddress(user.email)) return CORPORATE_EMAIL_REFUSAL;
        if (user.emailVerified !== true) return UNVERIFIED_EMAIL_REFUSAL;
      },
    },
    databaseHooks: {
      user: { create: { before: ssoHooks.userCreateBefore } },
      account: { create: { before: ssoHooks.accountCreateBefore } },
      session: {
        create: {
          before: async (session, context) => {
            await ssoHooks.sessionCreateBefore(session, context);
            // Last: an authenticator code is claimed only for a session nothing else refuses.
            await usedCodes.sessionCreateBefore(session, context);
          },
          after: async (session, context) => {
            // The password step of a sign-in with a second factor is not a login yet.
            if (await awaitsSecondFactor(db, session.userId, context?.path)) return;
            await db
              .update(schema.member)
              .set({ lastLoginAt: new Date() })
              .where(eq(schema.member.userId, session.userId));
          },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const formSchema = FORM_SCHEMAS[ctx.path];
        if (!formSchema) return;
        const parsed = formSchema.safeParse(ctx.body ?? {});
        if (parsed.success) return;
        const issue = parsed.error.issues[0];
        const field = String(issue?.path[0] ?? 'body');
        const isCorporate = issue?.message === 'signupForm.email.validation.corporate.lambda.error';
        throw new APIError('BAD_REQUEST', {
          code: isCorporate ? 'CORPORATE_EMAIL_REQUIRED' : 'VALIDATION_ERROR',
          message: messageText(issue?.message ?? 'errors.validation'),
          field,
        });
      }),
    },
    plugins: [
      emailOTP({
        overrideDefaultEmailVerification: true,
        sendVerificationOnSignUp: true,
        otpLength: 6,
        expiresIn: OTP_TTL_SECONDS,
        allowedAttempts: 5,
        storeOTP: 'hashed',
        async sendVerificationOTP({ email, otp, type }) {
          if (type === 'email-verification' || type === 'forget-password') await attempts.reset(type, email);
          const common = { to: email, portalName: portalName(config), code: otp, expiresInMinutes: OTP_TTL_SECONDS / 60 };
          if (type === 'email-verification') {
            await sendMail(
              verificationMail({ ...common, link: linkTo('/confirm-user', { email, confirmation_code: otp }) }),
            );
          } else if (type === 'forget-password') {
            await sendMail(passwordResetMail({ ...common, link: linkTo('/password/renew', { email, code: otp }) }));
          }
        },
      }),
      ...(config.google ? [googleSignIn(config.google)] : []),
      ...portalSso(db),
      ...portalTwoFactor({ publicUrl: config.publicUrl, portalName: portalName(config), usedCodes }),
      signInFailures(audit),
      jwt({
        disableSettingJwtHeader: true,
        jwt: {
          expirationTime: `${ACCESS_TOKEN_TTL_SECONDS}s`,
          definePayload: ({ user, session }) => ({ email: user.email, sid: session.id }),
        },
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
