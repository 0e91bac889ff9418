import { useMatches } from 'react-router';
import type { RouteAccess } from '../lib/guard';
import type { TranslationKey } from '../lib/i18n';

/** Declared on each route in the router, so the guard knows a page's access before its code loads. */
export interface RouteHandle {
  access: RouteAccess;
  title: TranslationKey;
  /** The text of pages that only say something (forbidden, not found, invitation links). */
  message?: TranslationKey;
}

const isRouteHandle = (handle: unknown): handle is RouteHandle =>
  typeof handle === 'object' && handle !== null && 'access' in handle && 'title' in handle;

/** The handle of the deepest matched route that declares one. */
export function useRouteHandle(): RouteHandle {
  const handles = useMatches().map((match) => match.handle).filter(isRouteHandle);
  const deepest = handles[handles.length - 1];
  if (!deepest) throw new Error('Every route must declare its access and title in its handle.');
  return deepest;
}
