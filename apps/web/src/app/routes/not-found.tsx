import { Navigate, useLocation } from 'react-router';
import { withoutNumericPrefix } from '../../lib/redirects';
import { Component as MessagePage } from './message';

/**
 * Any path no route knows: one with a numeric prefix (/2/apps/asc) leads to the page without it,
 * whose access the guard has already checked (routeHandleOf); anything else is the 404 page.
 */
export function Component() {
  const { pathname, search, hash } = useLocation();
  const unprefixed = withoutNumericPrefix(pathname);
  if (unprefixed !== null) return <Navigate to={`${unprefixed}${search}${hash}`} replace />;
  return <MessagePage />;
}
