import { z } from 'zod';
import {
  FREE_MAIL_DOMAINS,
  SIGN_IN_PASSWORD_MIN_LENGTH,
  SSO_DOMAIN_MAX_LENGTH,
  STRONG_PASSWORD_MIN_LENGTH,
} from './constants.ts';
import type { MessageKey } from './messages.ts';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
/** The longest address SMTP can deliver to (RFC 5321 path limit less the angle brackets). */
const EMAIL_MAX_LENGTH = 254;

export function isValidEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);
}

/** True when the address belongs to one of the free-mail providers (gmail.com, yahoo.co.uk, …). */
export function isFreeMailAddress(email: string): boolean {
  const domain = email.trim().toLowerCase().split('@')[1] ?? '';
  const labels = domain.split('.').slice(0, -1);
  return labels.some((label) => (FREE_MAIL_DOMAINS as readonly string[]).includes(label));
}

const key = (k: MessageKey) => k;

/** Email as every form takes it: trimmed, required, valid. */
export const emailField = z
  .string({ error: key('validation.email.required') })
  .trim()
  .min(1, key('validation.email.required'))
  .refine(isValidEmail, key('validation.email.invalid'));

export const corporateEmailField = emailField.refine(
  (email) => !isFreeMailAddress(email),
  key('signupForm.email.validation.corporate.lambda.error'),
);

/** The sign-up password policy (§5): each missing rule has its own message. */
export const strongPasswordField = z
  .string({ error: key('validation.password.required') })
  .min(1, key('validation.password.required'))
  .min(STRONG_PASSWORD_MIN_LENGTH, key('signupForm.password.validation.length'))
  .regex(/[a-z]/, key('signupForm.password.validation.lower'))
  .regex(/[A-Z]/, key('signupForm.password.validation.caps'))
  .regex(/[0-9]/, key('signupForm.password.validation.numbers'))
  .regex(/[^A-Za-z0-9]/, key('signupForm.password.validation.special'));

/** True when the password satisfies every rule of the sign-up policy. */
export function meetsPasswordPolicy(password: string): boolean {
  return strongPasswordField.safeParse(password).success;
}

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
  .refine((v) => v.password === v.confirmPassword, {
    message: key('validation.password.mismatch'),
    path: ['confirmPassword'],
  });
export type PasswordRenewForm = z.infer<typeof PasswordRenewFormSchema>;

export const ResendVerificationRequestSchema = z.object({ email: emailField });
export type ResendVerificationRequest = z.infer<typeof ResendVerificationRequestSchema>;

export const VerifyEmailRequestSchema = z.object({
  email: emailField,
  code: z.string().trim().min(1, key('validation.code.required')),
});

/** Letters, digits and dashes only; the SSO form also blocks other characters while typing and pasting. */
export const SSO_DOMAIN_ALLOWED = /^[A-Za-z0-9-]*$/;
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
    tutorial: z.string(),
  }),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;
