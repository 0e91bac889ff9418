import { createContext, use } from 'react';
import type { RouteAccess } from '../lib/guard';
import type { TranslationKey } from '../lib/i18n';

/** Declared on each route in the router, so the guard knows a page's access before its code loads. */
export interface RouteHandle {
  access: RouteAccess;
  title: TranslationKey;
  /** The text of pages that only say something (forbidden, not found, invitation links). */
  message?: TranslationKey;
}

export const RouteHandleContext = createContext<RouteHandle | null>(null);

/** The handle of the deepest route matching the address. */
export function useRouteHandle(): RouteHandle {
  const handle = use(RouteHandleContext);
  if (!handle) throw new Error('useRouteHandle is only available inside PortalRoutes.');
  return handle;
}
