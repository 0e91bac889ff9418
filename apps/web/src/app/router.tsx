import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { matchRoutes, Navigate, useLocation, useRoutes, type RouteObject } from 'react-router';
import { browserChunkReloads, reloadOnceOnChunkFailure } from '../lib/chunk-reload';
import { PageLoader } from '../components/page-loader';
import type { RouteAccess } from '../lib/guard';
import { endTakeOver } from '../lib/hydration';
import { withoutNumericPrefix } from '../lib/redirects';
import type { TranslationKey } from '../lib/i18n';
import { Root } from './root';
import { RouteHandleContext, type RouteHandle } from './route-handle';
import * as confirmUser from './routes/confirm-user';
import * as emailExpired from './routes/email-expired';
import * as error from './routes/error';
import * as home from './routes/home';
import * as invitationExpired from './routes/invitation-expired';
import * as invitationInvalid from './routes/invitation-invalid';
import * as login from './routes/login';
import * as logout from './routes/logout';
import * as message from './routes/message';
import * as notFound from './routes/not-found';
import * as openAppcues from './routes/open-appcues';
import * as passwordRenew from './routes/password-renew';
import * as passwordReset from './routes/password-reset';
import * as signInSso from './routes/sign-in-sso';
import * as signup from './routes/signup';
import * as verifyEmail from './routes/verify-email';

/** A route module: the page component it exports as `Component`. */
type RouteModule = { Component: ComponentType };

const chunkReloads = browserChunkReloads();

/** What loads each lazily loaded route's code, by route: see loadRouteCode. */
const routeCode = new Map<RouteObject, () => Promise<unknown>>();

/**
 * A page whose code loads when it is first shown, reloading the page once if its chunk is gone;
 * `after` is rendered beside it once it is there. A page whose code is already loaded when it is
 * shown (every page of a server render and of its take-over, see loadRouteCode) is rendered as it
 * is, with no Suspense boundary: React hydrates a boundary the server rendered in a pass of its own
 * after the rest, at idle priority, so each one around a page would add a pass, a commit and a wait
 * to the take-over (decision 045, sixth part). Whether it was loaded is read once per mount, so a
 * page that loads while shown is never replaced by another element, which would mount it again.
 */
function lazyPage(name: string, load: () => Promise<RouteModule>, after?: ReactNode) {
  let loaded: ComponentType | undefined;
  const loadPage = () =>
    load().then((module) => {
      loaded = module.Component;
      return { default: module.Component };
    });
  // A server render reads its modules from its own build, which no release removes under it.
  const loadOnce =
    typeof window === 'undefined' ? loadPage : reloadOnceOnChunkFailure(loadPage, name, chunkReloads);
  // One attempt, shared by loadRouteCode and the page: a failure there is the page's failure too
  // (its error page), not a second attempt that would reload the page once more.
  let loading: ReturnType<typeof loadOnce> | undefined;
  const loadCode = () => (loading ??= loadOnce());
  const Page = lazy(loadCode);
  function RoutePage() {
    const [Loaded] = useState(() => loaded);
    if (Loaded)
      return (
        <>
          <Loaded />
          {after}
        </>
      );
    return (
      <Suspense fallback={<PageLoader />}>
        <Page />
        {after}
      </Suspense>
    );
  }
  return { element: <RoutePage />, loadCode };
}

/** A route whose element is a lazily loaded page: its code is registered for loadRouteCode. */
function withCode(route: RouteObject, loadCode: () => Promise<unknown>): RouteObject {
  routeCode.set(route, loadCode);
  return route;
}

/**
 * Loads the code of every lazily loaded route that `pathname` shows. A server render waits for it
 * before rendering, and the browser before taking that render over, so both render the same pages
 * without a Suspense boundary around them (see lazyPage).
 */
export async function loadRouteCode(pathname: string): Promise<void> {
  const matched = matchRoutes(routes, pathname) ?? [];
  await Promise.all(matched.map(({ route }) => routeCode.get(route)?.()));
}

/**
 * A page of the §2 route table: its access and title are known before its code is loaded. The
 * public pages are small and are where visitors arrive, so they come with the first script; the
 * signed-in pages, and the Mantine they are built with, load when first opened (decision 012).
 */
function page(
  path: string,
  access: RouteAccess,
  title: TranslationKey,
  route: RouteModule | (() => Promise<RouteModule>),
  extra: Partial<RouteHandle> = {},
): RouteObject {
  const handle: RouteHandle = { access, title, ...extra };
  if (typeof route !== 'function')
    return {
      path,
      handle,
      element: (
        <>
          <route.Component />
          <TakenOver />
        </>
      ),
    };
  const { element, loadCode } = lazyPage(path, route, <TakenOver />);
  return withCode({ path, handle, element }, loadCode);
}

/** Marks the document once the page is the browser's: `<html data-hydrated>`. */
const HYDRATED_ATTRIBUTE = 'data-hydrated';

/**
 * Beside every page, rendered with it (inside its Suspense boundary while its code loads), so it
 * runs once that page is taken over: a server-rendered page (decision 026) takes input before then,
 * and this says when its script answers it (decision 045; the browser tests and the web benchmark
 * wait for it).
 */
function TakenOver() {
  useEffect(() => {
    endTakeOver();
    document.documentElement.setAttribute(HYDRATED_ATTRIBUTE, '');
  }, []);
  return null;
}

/** The signed-in frame, around the signed-in pages. */
function appLayout(children: RouteObject[]): RouteObject {
  const { element, loadCode } = lazyPage('app-layout', () => import('./routes/app-layout'));
  return withCode({ element, children }, loadCode);
}

/** Keeps the query: a failed Google sign-in comes back to / with error_description. */
function ToHome() {
  const { search } = useLocation();
  return <Navigate to={`/home${search}`} replace />;
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    handle: { access: 'any', title: 'app.name' } satisfies RouteHandle,
    children: [
      { index: true, element: <ToHome /> },
      page('home', 'login', 'page.home', home),

      page('login', 'public', 'page.login', login),
      // Beyond the spec: the second step of sign-in, loaded when a sign-in asks for it.
      page('two-factor', 'public', 'page.twoFactor', () => import('./routes/two-factor')),
      page('signup', 'public', 'page.signup', signup),
      page('sign-in-sso', 'public', 'page.signInSso', signInSso),
      page('verify-email', 'public', 'page.verifyEmail', verifyEmail),
      page('confirm-user', 'public', 'page.confirmUser', confirmUser),
      page('email-expired', 'public', 'page.emailExpired', emailExpired),
      page('password/reset', 'public', 'page.passwordReset', passwordReset),
      page('password/renew', 'public', 'page.passwordRenew', passwordRenew),
      page(
        'invitation-signup',
        'public',
        'invitation.signup.title',
        () => import('./routes/invitation-signup'),
      ),
      page('invitation-expired', 'public', 'invitation.expired.title', invitationExpired),
      page('invitation-invalid', 'public', 'invitation.invalid.title', invitationInvalid),
      page('logout', 'public', 'page.logout', logout),
      page('error', 'public', 'page.error', error),
      page('forbidden', 'public', 'forbidden.title', message, { message: 'forbidden.text' }),

      page(
        'setup-organization',
        'login',
        'page.setupOrganization',
        () => import('./routes/setup-organization'),
      ),
      page('two-factor-setup', 'login', 'page.twoFactorSetup', () => import('./routes/two-factor-setup')),
      page('payment/:sub/:type', 'VIEW_BILLING', 'page.payment', () => import('./routes/payment')),
      appLayout([
        page('apps/:sub', 'VIEW_APPLICATION', 'page.apps', () => import('./routes/apps')),
        page(
          'create-app/:sub/:step?',
          'CREATE_APPLICATION',
          'page.createApp',
          () => import('./routes/create-app'),
        ),
        page('billing/:sub', 'VIEW_BILLING', 'page.billing', () => import('./routes/billing')),
        page('billing/:sub/:id', 'VIEW_BILLING', 'page.transaction', () => import('./routes/transaction')),
        page(
          'billing/:sub/:id/print',
          'VIEW_BILLING',
          'page.transaction',
          () => import('./routes/print-invoice'),
        ),
        page('manage-payment', 'VIEW_BILLING', 'page.managePayment', () => import('./routes/manage-payment')),
        page(
          'subscription-licenses/:sub',
          'VIEW_PLAN_DETAIL',
          'page.subscription',
          () => import('./routes/subscription'),
        ),
        // Beyond the spec: the organisation's single sign-on.
        page('single-sign-on', 'MANAGE_SSO', 'page.singleSignOn', () => import('./routes/single-sign-on')),
        // Beyond the spec: the organisation's audit log (decision 042).
        page('audit-log', 'VIEW_AUDIT_LOG', 'page.auditLog', () => import('./routes/audit-log')),
        page('manage-members', 'VIEW_MEMBER', 'page.manageMembers', () => import('./routes/manage-members')),
        page(
          'manage-members/:memberId',
          'EDIT_MEMBER',
          'page.editMember',
          () => import('./routes/edit-member'),
        ),
        page(
          'invite-members',
          'INVITE_MEMBER',
          'page.inviteMembers',
          () => import('./routes/invite-members'),
        ),
        page('edit-profile', 'login', 'page.editProfile', () => import('./routes/edit-profile')),
        // In the frame, so the frame is on screen while it hands over to the application list.
        page('open-appcues', 'login', 'page.tutorial', openAppcues),
      ]),

      page('*', 'any', 'notFound.title', notFound, { message: 'notFound.text' }),
    ],
  },
];

const isRouteHandle = (handle: unknown): handle is RouteHandle =>
  typeof handle === 'object' && handle !== null && 'access' in handle && 'title' in handle;

/** The handle of the deepest route matching the address that declares one. */
export function routeHandleOf(location: string | { pathname: string }): RouteHandle {
  const pathname = typeof location === 'string' ? location : location.pathname;
  // A numerically prefixed path is guarded as the page it leads to (the not-found route leads there).
  const handles = (matchRoutes(routes, withoutNumericPrefix(pathname) ?? pathname) ?? [])
    .map((match) => match.route.handle)
    .filter(isRouteHandle);
  const handle = handles[handles.length - 1];
  if (!handle) throw new Error('Every route must declare its access and title in its handle.');
  return handle;
}

/** The page for the current address, with its route's handle. */
export function PortalRoutes() {
  const location = useLocation();
  const element = useRoutes(routes, location);
  return <RouteHandleContext value={routeHandleOf(location)}>{element}</RouteHandleContext>;
}
