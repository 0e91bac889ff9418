import {
  ACCESS_TOKEN_TTL_SECONDS,
  ApplicationSchema,
  type Application,
  type CreateApplicationRequest,
} from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { APPLICATIONS_QUERY_KEY } from '../../applications/api/list-applications';
import { signInToRegion } from './region-api';

/** The create call's list (§7) read as a tuple, so its first item is typed as present. */
const CreatedListSchema = z.tuple([ApplicationSchema], ApplicationSchema);

const TokenResponseSchema = z.object({ token: z.string() });

const POLL_INTERVAL_MS = 1_000;
export const ACTIVATION_TIMEOUT_MS = 60_000;

/** The app was created but its region did not finish provisioning it in time. */
export class ActivationTimeoutError extends Error {
  constructor() {
    super('createApp.error.activationTimeout');
    this.name = 'ActivationTimeoutError';
  }
}

export function getApplication(applicationId: string, signal?: AbortSignal) {
  return apiRequest(`/api/v1/applications/${encodeURIComponent(applicationId)}`, { schema: ApplicationSchema, signal });
}

/** One application, under the applications prefix so list mutations refresh it too. */
export const applicationQueryOptions = (applicationId: string) =>
  queryOptions({
    queryKey: [...APPLICATIONS_QUERY_KEY, 'detail', applicationId],
    queryFn: ({ signal }) => getApplication(applicationId, signal),
  });

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * §4 create flow: create the app, wait until its region has provisioned it, then open the
 * regional session the next steps need (API key, first activity) with a fresh portal token.
 */
export async function createAndConnectApplication(request: CreateApplicationRequest) {
  const [created] = await apiRequest('/api/v1/applications', {
    method: 'POST',
    body: request,
    schema: CreatedListSchema,
  });
  let application = created;
  const deadline = Date.now() + ACTIVATION_TIMEOUT_MS;
  while (application.state !== 'active') {
    if (Date.now() >= deadline) throw new ActivationTimeoutError();
    await wait(POLL_INTERVAL_MS);
    application = await getApplication(application.applicationId);
  }
  const session = await openRegionalSession(application);
  return { application, session };
}

/** The regional session (a cookie of the region) for the app, opened with a fresh portal token. */
async function openRegionalSession({ region, applicationId }: Application) {
  const { token } = await apiRequest('/api/auth/token', { schema: TokenResponseSchema });
  return signInToRegion(region, applicationId, token);
}

/**
 * The regional session the later steps need. The create step seeds it; a reload in another
 * browser session, or one after the session ended, opens it again. It lasts as long as the
 * one-hour portal token, so it is renewed a little before that.
 */
export const regionalSessionQueryOptions = (application: Application) =>
  queryOptions({
    queryKey: ['regional-session', application.region, application.applicationId],
    queryFn: () => openRegionalSession(application),
    staleTime: (ACCESS_TOKEN_TTL_SECONDS - 5 * 60) * 1000,
  });
