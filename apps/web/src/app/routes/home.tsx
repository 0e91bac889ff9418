import { uiPermissions } from '@portal/contracts';
import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { useSignedInAccount } from '../../lib/account';
import { usePublicConfig } from '../../lib/public-config';
import { homeDestination } from '../../lib/redirects';

/** /home lands on the first page the user may see (§2); the dashboard is outside the portal. */
export function Component() {
  const account = useSignedInAccount();
  const config = usePublicConfig();
  const destination = homeDestination(uiPermissions(account.permissions));
  const dashboardUrl = destination.kind === 'dashboard' ? config.data?.dashboardUrl : undefined;

  useEffect(() => {
    if (dashboardUrl) window.location.replace(dashboardUrl);
  }, [dashboardUrl]);

  if (destination.kind === 'internal') return <Navigate to={destination.to} replace />;
  if (config.isError) return <Navigate to="/error" replace />;
  return <PageLoader />;
}
