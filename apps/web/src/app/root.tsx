import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { useAccountState } from '../lib/account';
import { googleSignInOrigin } from '../lib/google-sign-in-origin';
import { decideGuard } from '../lib/guard';
import { useTranslation } from '../lib/i18n';
import { RouteErrorBoundary } from './route-error-boundary';
import { useRouteHandle } from './route-handle';

/** Every page passes here: its title, then the guard rules of §2. */
export function Root() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const { access, title } = useRouteHandle();
  const account = useAccountState();
  const decision = decideGuard({
    pathname,
    search,
    access,
    account,
    googleSignInStartedOn: googleSignInOrigin,
  });

  return (
    <>
      <title>{t('app.pageTitle', { page: t(title) })}</title>
      {decision.type === 'loading' && <PageLoader />}
      {decision.type === 'redirect' && <Navigate to={decision.to} replace />}
      {decision.type === 'render' && (
        <RouteErrorBoundary key={pathname}>
          {/* A page whose code is loading shows the page loader itself (router.tsx, lazyPage). */}
          <Outlet />
        </RouteErrorBoundary>
      )}
    </>
  );
}
