import { ACCESS_TOKEN_TTL_SECONDS, type Application } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../api-client';
import { signInToRegion } from './region-api';

const TokenResponseSchema = z.object({ token: z.string() });

/** Opens the regional session (a cookie of the region) for the app with a fresh portal access token. */
export async function openRegionalSession({ region, applicationId }: Pick<Application, 'region' | 'applicationId'>) {
  const { token } = await apiRequest('/api/auth/token', { schema: TokenResponseSchema });
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
 * Opens an application's console in a new tab with a regional session. The tab is opened at
 * once, while the click still counts as a user gesture, and sent to the console once the
 * session exists; it closes again when the session cannot be opened.
 */
export async function openConsole(application: Application & { consoleUrl: string }) {
  const tab = window.open('about:blank', '_blank');
  try {
    await openRegionalSession(application);
    if (tab) tab.location.href = application.consoleUrl;
    else window.location.assign(application.consoleUrl);
  } catch (error) {
    tab?.close();
    throw error;
  }
}
