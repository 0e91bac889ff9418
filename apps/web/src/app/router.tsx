import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { ErrorPage } from '../components/error-page';
import { PageLoader } from '../components/page-loader';
import { browserChunkReloads, reloadOnceOnChunkFailure } from '../lib/chunk-reload';
import type { RouteAccess } from '../lib/guard';
import type { TranslationKey } from '../lib/i18n';
import { Root } from './root';
import type { RouteHandle } from './route-handle';

// The function form of `lazy` (react-router also takes an object of per-property loaders).
type LazyRoute = Extract<NonNullable<RouteObject['lazy']>, () => unknown>;

const placeholder: LazyRoute = () => import('./routes/placeholder');
const message: LazyRoute = () => import('./routes/message');

// Route chunks load while a navigation is pending, before the address changes: its destination is the page to reopen.
const chunkReloads = browserChunkReloads(() => {
  const pending = router.state.navigation.location;
  return pending ? `${pending.pathname}${pending.search}` : undefined;
});

/** A page of the §2 route table: its access and title are known before its code is loaded. */
function page(path: string, access: RouteAccess, title: TranslationKey, lazy: LazyRoute, extra: Partial<RouteHandle> = {}): RouteObject {
  const handle: RouteHandle = { access, title, ...extra };
  return { path, handle, lazy: reloadOnceOnChunkFailure(lazy, path, chunkReloads) };
}

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: Root,
    ErrorBoundary: ErrorPage,
    HydrateFallback: PageLoader,
    handle: { access: 'any', title: 'app.name' } satisfies RouteHandle,
    children: [
      // Keeps the query: a failed Google sign-in comes back to / with error_description.
      { index: true, loader: ({ request }) => redirect(`/home${new URL(request.url).search}`) },
      page('home', 'login', 'page.home', () => import('./routes/home')),

      page('login', 'public', 'page.login', () => import('./routes/login')),
      page('signup', 'public', 'page.signup', () => import('./routes/signup')),
      page('sign-in-sso', 'public', 'page.signInSso', () => import('./routes/sign-in-sso')),
      page('verify-email', 'public', 'page.verifyEmail', () => import('./routes/verify-email')),
      page('confirm-user', 'public', 'page.confirmUser', () => import('./routes/confirm-user')),
      page('email-expired', 'public', 'page.emailExpired', () => import('./routes/email-expired')),
      page('password/reset', 'public', 'page.passwordReset', () => import('./routes/password-reset')),
      page('password/renew', 'public', 'page.passwordRenew', () => import('./routes/password-renew')),
      page('invitation-signup', 'public', 'invitation.signup.title', () => import('./routes/invitation-signup')),
      page('invitation-expired', 'public', 'invitation.expired.title', () => import('./routes/invitation-expired')),
      page('invitation-invalid', 'public', 'invitation.invalid.title', () => import('./routes/invitation-invalid')),
      page('logout', 'public', 'page.logout', () => import('./routes/logout')),
      page('error', 'public', 'page.error', () => import('./routes/error')),
      page('forbidden', 'public', 'forbidden.title', message, { message: 'forbidden.text' }),

      page('setup-organization', 'login', 'page.setupOrganization', () => import('./routes/setup-organization')),
      page('payment/:sub/:type', 'VIEW_BILLING', 'page.payment', () => import('./routes/payment')),
      {
        lazy: reloadOnceOnChunkFailure(() => import('./routes/app-layout'), 'app-layout', chunkReloads),
        children: [
          page('apps/:sub', 'VIEW_APPLICATION', 'page.apps', () => import('./routes/apps')),
          page('create-app/:sub/:step?', 'CREATE_APPLICATION', 'page.createApp', () => import('./routes/create-app')),
          page('billing/:sub', 'VIEW_BILLING', 'page.billing', placeholder),
          page('billing/:sub/:id', 'VIEW_BILLING', 'page.transaction', placeholder),
          page('manage-payment', 'VIEW_BILLING', 'page.managePayment', placeholder),
          page('subscription-licenses/:sub', 'VIEW_PLAN_DETAIL', 'page.subscription', placeholder),
          page('manage-members', 'VIEW_MEMBER', 'page.manageMembers', () => import('./routes/manage-members')),
          page('manage-members/:memberId', 'EDIT_MEMBER', 'page.editMember', () => import('./routes/edit-member')),
          page('invite-members', 'INVITE_MEMBER', 'page.inviteMembers', () => import('./routes/invite-members')),
          page('edit-profile', 'login', 'page.editProfile', () => import('./routes/edit-profile')),
        ],
      },

      page('*', 'any', 'notFound.title', message, { message: 'notFound.text' }),
    ],
  },
];

export const router = createBrowserRouter(routes);
