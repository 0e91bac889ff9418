/**
 * Rules written as plain functions and patterns, without zod: the public pages check against them
 * before the validation schemas (auth.ts, built from the same rules) have loaded.
 */
import type { Account, BillingForm, UpdateAccountRequest } from './account.ts';
import { FREE_MAIL_DOMAINS, STRONG_PASSWORD_MIN_LENGTH, type VAT_OPTIONS } from './constants.ts';
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

/** The characters the sign-up password policy (§5) asks for, each with its own message. */
export const PASSWORD_CHARACTER_RULES: readonly { pattern: RegExp; message: MessageKey }[] = [
  { pattern: /[a-z]/, message: 'signupForm.password.validation.lower' },
  { pattern: /[A-Z]/, message: 'signupForm.password.validation.caps' },
  { pattern: /[0-9]/, message: 'signupForm.password.validation.numbers' },
  { pattern: /[^A-Za-z0-9]/, message: 'signupForm.password.validation.special' },
];

/** True when the password satisfies every rule of the sign-up policy. */
export function meetsPasswordPolicy(password: string): boolean {
  return (
    password.length >= STRONG_PASSWORD_MIN_LENGTH &&
    PASSWORD_CHARACTER_RULES.every(({ pattern }) => pattern.test(password))
  );
}

/** Letters, digits and dashes only; the SSO form also blocks other characters while typing and pasting. */
export const SSO_DOMAIN_ALLOWED = /^[A-Za-z0-9-]*$/;

export function billingFormToRequest(form: BillingForm): UpdateAccountRequest {
  const { vatOption, ...rest } = form;
  return { ...rest, vatNumber: vatOption === 'registered' ? rest.vatNumber : '' };
}

export function vatOptionOf(account: Pick<Account, 'vatNumber'>): (typeof VAT_OPTIONS)[number] {
  return account.vatNumber ? 'registered' : 'unregistered';
}

/** Splits pasted text into addresses (§5): on newlines, commas or semicolons, trimmed, deduplicated. */
export function splitEmailList(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[\n\r,;]+/)) {
    const email = part.trim();
    if (email && !seen.has(email.toLowerCase())) seen.add(email.toLowerCase());
  }
  return [...seen];
}
