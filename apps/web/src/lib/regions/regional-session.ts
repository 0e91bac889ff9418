import { ACCESS_TOKEN_TTL_SECONDS, type Application } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../api-client';
import { signInToRegion } from './region-api';

/** Opens the regional session (a cookie of the region) for the app with a fresh portal access token. */
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
 */
export async function openConsole(application: Application & { consoleUrl: string }, tab: Window | null) {
  try {
    await openRegionalSession(application);
    if (tab) tab.location.href = application.consoleUrl;
    else window.location.assign(application.consoleUrl);
  } catch (error) {
    tab?.close();
    throw error;
  }
}
