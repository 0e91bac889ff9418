import type { Permission } from '@portal/contracts';

/** Query parameter the sign-in page reads to know where to return after signing in. */
export const REDIRECT_PARAM = 'redirect';

/**
 * Where an unauthenticated visitor of a protected page is sent: /login carrying the page's
 * path and query. The path is kept whole (a leading numeric segment such as /2/billing/asc
 * included); the region parameter is dropped because the closest region is chosen again.
 */
export function loginPathFor(pathname: string, search: string): string {
  return carryingRedirect('/login', pathname, search);
}

/** `target` with the page's path and query as its redirect parameter (none for /), region dropped. */
export function carryingRedirect(target: string, pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete('region');
  const query = params.toString();
  const original = query ? `${pathname}?${query}` : pathname;
  if (original === '/') return target;
  return `${target}?${new URLSearchParams({ [REDIRECT_PARAM]: original }).toString()}`;
}

/**
 * §2: any path may begin with a numeric segment (/2/apps/asc), which the login redirect keeps; the
 * page is the path without it (decision 041). Answers that path, or null when there is no prefix.
 */
export function withoutNumericPrefix(pathname: string): string | null {
  const prefix = /^\/\d+(?=\/|$)/.exec(pathname)?.[0];
  return prefix === undefined ? null : pathname.slice(prefix.length) || '/';
}

const ORIGIN_PROBE = 'http://portal.invalid';

/** The redirect target when it is a path on this site; null for anything that could leave it. */
export function safeRedirectPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/')) return null;
  let url: URL;
  try {
    url = new URL(value, ORIGIN_PROBE);
  } catch {
    return null;
  }
  if (url.origin !== ORIGIN_PROBE) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

export type HomeDestination = { kind: 'internal'; to: string } | { kind: 'dashboard' };

/** /home's landing places (§2), first allowed wins; the dashboard lives outside the portal. */
const HOME_DESTINATIONS: readonly [Permission, HomeDestination][] = [
  ['VIEW_APPLICATION', { kind: 'internal', to: '/apps/asc' }],
  ['VIEW_BILLING', { kind: 'internal', to: '/billing/asc' }],
  ['VIEW_MEMBER', { kind: 'internal', to: '/manage-members' }],
  ['VIEW_PLAN_DETAIL', { kind: 'internal', to: '/subscription-licenses/asc' }],
  ['VIEW_DASHBOARD', { kind: 'dashboard' }],
];

const DEFAULT_HOME: HomeDestination = { kind: 'internal', to: '/apps/asc' };

export function homeDestination(permissions: readonly Permission[]): HomeDestination {
  return HOME_DESTINATIONS.find(([permission]) => permissions.includes(permission))?.[1] ?? DEFAULT_HOME;
}
