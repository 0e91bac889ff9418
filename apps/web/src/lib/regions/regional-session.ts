import { ACCESS_TOKEN_TTL_SECONDS, type Application } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../api-client';
import { signInToRegion } from './region-api';

/** Opens the regional session for the app with a fresh portal access token; answers the session's token. */
export async function openRegionalSession({
  region,
  applicationId,
}: Pick<Application, 'region' | 'applicationId'>) {
  const { token } = await apiRequest<{ token: string }>('/api/auth/token');
  return signInToRegion(region, applicationId, token);
}

/**
 * The regional session the wizard's later steps need. The create step seeds it; a reload in
 * another browser session, or one after the session ended, opens it again. It lasts as long as
 * the one-hour portal token, so it is renewed a little before that.
 */
export const regionalSessionQueryOptions = (application: Application) =>
  queryOptions({
    queryKey: ['regional-session', application.region, application.applicationId],
    queryFn: () => openRegionalSession(application),
    staleTime: (ACCESS_TOKEN_TTL_SECONDS - 5 * 60) * 1000,
  });

/**
 * Sends a tab to an application's console once a regional session exists; the tab closes again
 * when the session cannot be opened. The caller opens the tab during the click, while it still
 * counts as a user gesture (see `openConsoleTab`).
 *
 * The session is posted into the tab as a form to the console's address: the console is a page of
 * the region's site, where a cookie set through the portal's fetch is third-party and may be
 * blocked, while one set in answer to the tab's own navigation is first-party (decision 034).
 */
export async function openConsole(application: Application & { consoleUrl: string }, tab: Window | null) {
  try {
    const { sessionToken } = await openRegionalSession(application);
    postConsoleSignIn(tab?.document ?? document, application.consoleUrl, sessionToken);
  } catch (error) {
    tab?.close();
    throw error;
  }
}

/** Navigates the document's window to the console by posting the regional session to it. */
function postConsoleSignIn(target: Document, consoleUrl: string, sessionToken: string) {
  // The region accepts the post from the portal's origin only. Under the portal's no-referrer
  // policy, which the tab inherits, the browser would name no origin (Origin: null); this
  // document names the origin alone, never a path.
  const referrer = target.createElement('meta');
  referrer.name = 'referrer';
  referrer.content = 'origin';
  target.head.append(referrer);
  const form = target.createElement('form');
  form.method = 'POST';
  form.action = consoleUrl;
  const session = target.createElement('input');
  session.type = 'hidden';
  session.name = 'session';
  session.value = sessionToken;
  form.append(session);
  target.body.append(form);
  form.submit();
}
