import { SSO_DOMAIN_ALLOWED, SSO_DOMAIN_MAX_LENGTH } from '@portal/contracts';

/**
 * An organisation's SSO domain as typed or pasted (§5): only letters, digits and dashes are kept,
 * up to the maximum length. /sign-in-sso and the super-admin's Single sign-on page share it.
 */
export function sanitizeSsoDomain(value: string): string {
  return [...value]
    .filter((character) => SSO_DOMAIN_ALLOWED.test(character))
    .join('')
    .slice(0, SSO_DOMAIN_MAX_LENGTH);
}
