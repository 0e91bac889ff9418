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

/** A domain as the free-mail rule compares it: trimmed, lower case, without the trailing dot of a full name. */
function normalizeDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.+$/, '');
}

/** The part of an address after its last `@`, normalised; '' when there is none. */
export function emailDomainOf(email: string): string {
  const at = email.lastIndexOf('@');
  return at === -1 ? '' : normalizeDomain(email.slice(at + 1));
}

/**
 * True when the domain or one of its parent domains passes the test: mail.gmail.com tries
 * mail.gmail.com, gmail.com and com. The one way every free-mail check reads a domain (§5 "ending
 * in a free-mail domain"), whether the test is the spec's seven providers or a full list.
 */
export function domainOrParentMatches(domain: string, test: (candidate: string) => boolean): boolean {
  const labels = normalizeDomain(domain).split('.');
  return labels.some((_, index) => test(labels.slice(index).join('.')));
}

/** Second levels under a country code where providers register beside their .com: yahoo.co.jp, hotmail.com.br. */
const COUNTRY_SECOND_LEVELS: ReadonlySet<string> = new Set(['co', 'com', 'ne', 'net', 'or', 'org']);

/**
 * A provider's own domain: one of the spec's seven names directly under a top-level domain
 * (gmail.com, yahoo.fr) or under a country's second level (yahoo.co.jp). outlook.acme.com is not:
 * there `outlook` is a company's subdomain.
 */
function isNamedProviderDomain(candidate: string): boolean {
  const [name = '', ...suffix] = candidate.split('.');
  if (!(FREE_MAIL_DOMAINS as readonly string[]).includes(name)) return false;
  const [first = '', second = ''] = suffix;
  return (
    suffix.length === 1 || (suffix.length === 2 && COUNTRY_SECOND_LEVELS.has(first) && second.length === 2)
  );
}

/**
 * True when the domain ends in a domain of the spec's seven free-mail providers (§5). Only these
 * seven travel with the sign-up form for instant feedback; the server refuses them and the
 * maintained list of every other free-mail domain (apps/api/src/auth/free-mail.ts, decision 032).
 */
export function isNamedFreeMailDomain(domain: string): boolean {
  return domainOrParentMatches(domain, isNamedProviderDomain);
}

/** The form's instant check of an address against the spec's seven providers; see isNamedFreeMailDomain. */
export function isNamedFreeMailAddress(email: string): boolean {
  return isNamedFreeMailDomain(emailDomainOf(email));
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
