import { uiPermissions, type ErrorCode, type Permission } from '@portal/contracts';
import { carryingRedirect, loginPathFor, REDIRECT_PARAM, safeRedirectPath } from './redirects';

/** Who may open a route (§2 route table): anyone, signed-out pages, any signed-in user, or a permission. */
export type RouteAccess = 'any' | 'public' | 'login' | Permission;

/** What decides a signed-in user's access: the account's permissions. */
export interface AccessHolder {
  permissions: readonly Permission[];
}

/** Whether the signed-in user may open a page or see its menu item (the server checks the same permission). */
export function mayAccess(access: Permission, holder: AccessHolder): boolean {
  return uiPermissions(holder.permissions).includes(access);
}

export type AccountState =
  | { status: 'loading' }
  | { status: 'error' }
  | { status: 'signed-out' }
  | ({
      status: 'signed-in';
      isAccountFilled: boolean;
      /** The organisation requires a second factor the user has not set up: only enrolment opens. */
      twoFactorEnrolmentRequired: boolean;
    } & AccessHolder);

/** The page a Google sign-in was started from, so a refused corporate check can return there. */
export type GoogleSignInOrigin = 'login' | 'signup';

export interface GuardInput {
  pathname: string;
  search: string;
  access: RouteAccess;
  account: AccountState;
  /**
   * Where the tab started a Google sign-in, read only for a signed-out visitor who came back with
   * an error: the tab's storage is asked synchronously, which a page's first render should not wait on.
   */
  googleSignInStartedOn: () => GoogleSignInOrigin | null;
}

export type GuardDecision = { type: 'loading' } | { type: 'render' } | { type: 'redirect'; to: string };

export const SETUP_ORGANIZATION_PATH = '/setup-organization';
/** Beyond the spec: where a member whose organisation requires a second factor sets one up. */
export const TWO_FACTOR_SETUP_PATH = '/two-factor-setup';
/** Beyond the spec: the second step of a sign-in, for a user with two-factor authentication. */
export const TWO_FACTOR_SIGN_IN_PATH = '/two-factor';
export const ERROR_DESCRIPTION_PARAM = 'error_description';
/** An identity provider's refusal code; Google's own (access_denied) come without a description. */
export const ERROR_PARAM = 'error';
const CORPORATE_EMAIL_REQUIRED: ErrorCode = 'CORPORATE_EMAIL_REQUIRED';
const SIGNED_OUT_ONLY = ['/login', '/signup', TWO_FACTOR_SIGN_IN_PATH];

/** The identity provider refused a personal address; it may spell the code in lower case (§5). */
export function isCorporateEmailRefusal(errorDescription: string | null): boolean {
  return errorDescription !== null && errorDescription.toUpperCase().includes(CORPORATE_EMAIL_REQUIRED);
}

const render: GuardDecision = { type: 'render' };
const redirect = (to: string): GuardDecision => ({ type: 'redirect', to });

/** The guard rules of §2, in their order. */
export function decideGuard({
  pathname,
  search,
  access,
  account,
  googleSignInStartedOn,
}: GuardInput): GuardDecision {
  if (pathname === '/logout') return render;
  if (account.status === 'loading') return { type: 'loading' };
  if (access === 'any') return render;

  const query = new URLSearchParams(search);
  if (access === 'public') {
    if (account.status === 'signed-in' && SIGNED_OUT_ONLY.includes(pathname)) {
      return redirect(safeRedirectPath(query.get(REDIRECT_PARAM)) ?? '/');
    }
    return render;
  }

  if (account.status === 'error') return redirect('/error');
  if (account.status === 'signed-out') {
    const errorDescription = query.get(ERROR_DESCRIPTION_PARAM);
    const error = query.get(ERROR_PARAM);
    const startedOn = errorDescription !== null || error !== null ? googleSignInStartedOn() : null;
    // Beyond the spec: a Google sign-in that failed without a description (cancelled, expired) goes
    // back to the page it started on, which says so.
    if (errorDescription === null && error !== null && startedOn !== null)
      return redirect(`/${startedOn}?${new URLSearchParams({ [ERROR_PARAM]: error }).toString()}`);
    if (errorDescription === null) return redirect(loginPathFor(pathname, search));
    const carried = new URLSearchParams({ [ERROR_DESCRIPTION_PARAM]: errorDescription }).toString();
    if (isCorporateEmailRefusal(errorDescription)) {
      return redirect(`/${startedOn ?? 'login'}?${carried}`);
    }
    // The code goes along too: /sign-in-sso shows only the wording of codes it knows (decision 029).
    const refusal = new URLSearchParams(error === null ? {} : { [ERROR_PARAM]: error });
    refusal.set(ERROR_DESCRIPTION_PARAM, errorDescription);
    return redirect(`/sign-in-sso?${refusal}`);
  }

  // Nothing else opens until the second factor the organisation requires is set up; afterwards the
  // member goes where they were going.
  const onTwoFactorSetup = pathname === TWO_FACTOR_SETUP_PATH;
  if (account.twoFactorEnrolmentRequired)
    return onTwoFactorSetup ? render : redirect(carryingRedirect(TWO_FACTOR_SETUP_PATH, pathname, search));
  if (onTwoFactorSetup) return redirect(safeRedirectPath(query.get(REDIRECT_PARAM)) ?? '/');

  const onSetup = pathname === SETUP_ORGANIZATION_PATH;
  if (!account.isAccountFilled && !onSetup) return redirect(SETUP_ORGANIZATION_PATH);
  if (account.isAccountFilled && onSetup) return redirect('/');
  if (access !== 'login' && !mayAccess(access, account)) return redirect('/forbidden');
  return render;
}
