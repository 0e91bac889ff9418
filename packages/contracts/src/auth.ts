import { z } from 'zod';
import {
  REGION_KEYS,
  SIGN_IN_PASSWORD_MIN_LENGTH,
  SSO_DOMAIN_MAX_LENGTH,
  STRONG_PASSWORD_MIN_LENGTH,
} from './constants.ts';
import type { MessageKey } from './messages.ts';
import {
  isNamedFreeMailAddress,
  isValidEmail,
  PASSWORD_CHARACTER_RULES,
  SSO_DOMAIN_ALLOWED,
} from './rules.ts';

const key = (k: MessageKey) => k;

/** Email as every form takes it: trimmed, required, valid. */
export const emailField = z
  .string({ error: key('validation.email.required') })
  .trim()
  .min(1, key('validation.email.required'))
  .refine(isValidEmail, key('validation.email.invalid'));

export const corporateEmailField = emailField.refine(
  (email) => !isNamedFreeMailAddress(email),
  key('signupForm.email.validation.corporate.lambda.error'),
);

/** The sign-up password policy (§5): each missing rule has its own message. */
export const strongPasswordField = PASSWORD_CHARACTER_RULES.reduce(
  (field, { pattern, message }) => field.regex(pattern, key(message)),
  z
    .string({ error: key('validation.password.required') })
    .min(1, key('validation.password.required'))
    .min(STRONG_PASSWORD_MIN_LENGTH, key('signupForm.password.validation.length')),
);

/**
 * The check that a form's confirmPassword repeats its password field (`password` or `newPassword`),
 * reported on confirmPassword in the form's own words.
 */
export const confirmsPassword = <Field extends string>(passwordField: Field, message: MessageKey) =>
  z.refine<Record<Field | 'confirmPassword', string>>(
    (form) => form[passwordField] === form.confirmPassword,
    { message: key(message), path: ['confirmPassword'] },
  );

export const SignInRequestSchema = z.object({
  email: emailField,
  password: z
    .string({ error: key('validation.password.required') })
    .min(1, key('validation.password.required'))
    .min(SIGN_IN_PASSWORD_MIN_LENGTH, key('validation.password.min')),
});
export type SignInRequest = z.infer<typeof SignInRequestSchema>;

export const SignUpRequestSchema = z.object({
  email: corporateEmailField,
  password: strongPasswordField,
});
export type SignUpRequest = z.infer<typeof SignUpRequestSchema>;

export const PasswordResetRequestSchema = z.object({ email: emailField });
export type PasswordResetRequest = z.infer<typeof PasswordResetRequestSchema>;

export const PasswordRenewFormSchema = z
  .object({
    password: z
      .string()
      .min(1, key('validation.password.required'))
      .min(SIGN_IN_PASSWORD_MIN_LENGTH, key('validation.password.min')),
    confirmPassword: z.string().min(1, key('validation.confirmPassword.required')),
  })
  .check(confirmsPassword('password', 'validation.password.mismatch'));
export type PasswordRenewForm = z.infer<typeof PasswordRenewFormSchema>;

export const ResendVerificationRequestSchema = z.object({ email: emailField });
export type ResendVerificationRequest = z.infer<typeof ResendVerificationRequestSchema>;

export const VerifyEmailRequestSchema = z.object({
  email: emailField,
  code: z.string().trim().min(1, key('validation.code.required')),
});

/** The second step of sign-in, and the code that confirms enrolment: 6 digits (spaces ignored). */
export const TotpCodeFormSchema = z.object({
  code: z
    .string({ error: key('validation.totpCode.format') })
    .transform((code) => code.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, key('validation.totpCode.format'))),
});
export type TotpCodeForm = z.infer<typeof TotpCodeFormSchema>;

/** A backup code instead of the authenticator's (xxxxx-xxxxx as shown at enrolment). */
export const BackupCodeFormSchema = z.object({
  code: z
    .string({ error: key('validation.backupCode.required') })
    .trim()
    .min(1, key('validation.backupCode.required')),
});
export type BackupCodeForm = z.infer<typeof BackupCodeFormSchema>;

export const SsoDomainFormSchema = z.object({
  domain: z
    .string()
    .trim()
    .min(1, key('validation.ssoDomain.required'))
    .max(SSO_DOMAIN_MAX_LENGTH, key('validation.ssoDomain.format'))
    .regex(SSO_DOMAIN_ALLOWED, key('validation.ssoDomain.format')),
});
export type SsoDomainForm = z.infer<typeof SsoDomainFormSchema>;

/** Public configuration the sign-in pages need: which identity options exist, product wording, links. */
export const PublicConfigSchema = z.object({
  productName: z.string(),
  googleSignIn: z.boolean(),
  ssoSignIn: z.boolean(),
  dashboardUrl: z.string(),
  helpLinks: z.object({
    developerPortal: z.string(),
    documentation: z.string(),
    communityHub: z.string(),
    faq: z.string(),
    /** The wizard's finish-setup guides (§2); its third card, explore docs, opens `documentation`. */
    manageCommunity: z.string(),
    createChannel: z.string(),
  }),
  /**
   * Where the browser reaches each region's API (ping, regional session, API key, first activity):
   * its REGION_*_URL, or `/regions/{key}` on the portal's own origin when the portal hosts it.
   */
  regionBaseUrls: z.record(z.enum(REGION_KEYS), z.string()),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;
