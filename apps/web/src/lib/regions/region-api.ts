import {
  ApiKeyResponseSchema,
  type ApiKeyResponse,
  FirstActivityResponseSchema,
  PingResponseSchema,
  PORTAL_SSO_IDENTIFIER,
  REGION_PATHS,
  RegionSsoResponseSchema,
  type RegionKey,
  type RegionSsoResponse,
} from '@portal/contracts';
import type { z } from 'zod';
import { ApiError, NETWORK_ERROR } from '../api-error';
import { regionBaseUrl } from './region';

interface RegionRequest<T> {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  schema: z.ZodType<T>;
  signal?: AbortSignal;
}

/**
 * A call to a region's API from the browser, at the region's base named by the public
 * configuration (often another site than the portal's). The regional session goes as a bearer
 * header (decision 034); credentials are still included so a region on the portal's own site
 * also sees its cookie.
 */
async function regionRequest<T>(region: RegionKey, path: string, options: RegionRequest<T>): Promise<T> {
  const { method = 'GET', headers = {}, schema, signal } = options;
  const url = `${await regionBaseUrl(region)}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      signal,
      credentials: 'include',
      headers: { Accept: 'application/json', ...headers },
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError({ status: 0, code: NETWORK_ERROR, message: 'common.networkError', path: url });
  }
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const message =
      typeof payload === 'object' && payload !== null && 'message' in payload
        ? String(payload.message)
        : 'common.anErrorOccurred';
    throw new ApiError({ status: response.status, code: `HTTP_${response.status}`, message, path: url });
  }
  return schema.parse(payload);
}

export function pingRegion(region: RegionKey, signal: AbortSignal) {
  return regionRequest(region, REGION_PATHS.ping, { schema: PingResponseSchema, signal });
}

/** Opens the regional session for the application with the portal's short-lived token; answers its token. */
export function signInToRegion(
  region: RegionKey,
  applicationId: string,
  token: string,
  signal?: AbortSignal,
) {
  const path = `${REGION_PATHS.sso(PORTAL_SSO_IDENTIFIER)}?applicationId=${encodeURIComponent(applicationId)}`;
  return regionRequest(region, path, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    schema: RegionSsoResponseSchema,
    signal,
  });
}

/** The regional session's token as the header the region reads it from. */
const sessionHeaders = (session: Pick<RegionSsoResponse, 'sessionToken'>) => ({
  Authorization: `Bearer ${session.sessionToken}`,
});

/**
 * The setup wizard's key: the application's first key while it works; once it has stopped,
 * `apiKey` is null and `prefix` names the newest key that still works (decision 043).
 */
export function getApiKey(
  region: RegionKey,
  session: Pick<RegionSsoResponse, 'sessionToken'>,
  signal?: AbortSignal,
): Promise<ApiKeyResponse> {
  return regionRequest(region, REGION_PATHS.apiKey, {
    headers: sessionHeaders(session),
    schema: ApiKeyResponseSchema,
    signal,
  });
}

export function getFirstActivity(
  region: RegionKey,
  networkId: string,
  session: Pick<RegionSsoResponse, 'sessionToken'>,
  signal?: AbortSignal,
) {
  const path = `${REGION_PATHS.firstActivity}?networkId=${encodeURIComponent(networkId)}`;
  return regionRequest(region, path, {
    headers: sessionHeaders(session),
    schema: FirstActivityResponseSchema,
    signal,
  });
}
