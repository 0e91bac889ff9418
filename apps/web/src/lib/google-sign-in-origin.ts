import type { GoogleSignInOrigin } from './guard';

const STORAGE_KEY = 'portal.googleSignInStartedOn';

/** Google returns to the portal by a full page load, so the starting page is kept for the tab. */
export function rememberGoogleSignInOrigin(origin: GoogleSignInOrigin): void {
  sessionStorage.setItem(STORAGE_KEY, origin);
}

export function googleSignInOrigin(): GoogleSignInOrigin | null {
  // A server render has no tab; it renders only pages the guard shows whatever this says.
  if (typeof sessionStorage === 'undefined') return null;
  const stored = sessionStorage.getItem(STORAGE_KEY);
  return stored === 'login' || stored === 'signup' ? stored : null;
}
