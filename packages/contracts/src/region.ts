import { z } from 'zod';
import { REGION_KEYS } from './constants.ts';

/**
 * The regional platform's APIs as the portal and the browser use them (§7 "Regional API",
 * architecture "Regions"). Paths are relative to a region's API base (REGION_*_URL, or
 * {PUBLIC_URL}/regions/{sg|eu|us} when the emulator is mounted in the portal).
 */
export const REGION_PATHS = {
  // Server-to-server, bearer REGION_ADMIN_TOKEN.
  networks: '/admin/v1/networks',
  network: (networkId: string) => `/admin/v1/networks/${encodeURIComponent(networkId)}`,
  deactivate: (networkId: string) => `/admin/v1/networks/${encodeURIComponent(networkId)}/deactivate`,
  reactivate: (networkId: string) => `/admin/v1/networks/${encodeURIComponent(networkId)}/reactivate`,
  usage: '/admin/v1/usage',
  // Browser, credentials included.
  sso: (portal: string) => `/api/v2/sso/${encodeURIComponent(portal)}`,
  apiKey: '/admin/v1/network/apikey',
  firstActivity: '/network/first-activity',
  ping: '/ping',
  // SDK, authenticated by the API key.
  sdkSession: '/sdk/v1/sessions',
} as const;

/** The portal identifier in the regional SSO path. */
export const PORTAL_SSO_IDENTIFIER = 'portal';

export const NETWORK_STATUSES = ['provisioning', 'active', 'inactive'] as const;
export type NetworkStatus = (typeof NETWORK_STATUSES)[number];

export const CreateNetworkRequestSchema = z.object({
  applicationId: z.string().min(1).max(64),
  organizationId: z.string().min(1).max(64),
  name: z.string().trim().min(1).max(64),
});
export type CreateNetworkRequest = z.infer<typeof CreateNetworkRequestSchema>;

export const NetworkSchema = z.object({
  networkId: z.string(),
  applicationId: z.string(),
  name: z.string(),
  status: z.enum(NETWORK_STATUSES),
  consoleUrl: z.string(),
  region: z.enum(REGION_KEYS),
});
export type Network = z.infer<typeof NetworkSchema>;

export const RenameNetworkRequestSchema = z.object({ name: z.string().trim().min(1).max(64) });

export const UsageQuerySchema = z.object({ month: z.string().regex(/^\d{4}-\d{2}$/) });
export const UsageResponseSchema = z.array(z.object({ networkId: z.string(), applicationId: z.string(), activeUsers: z.number().int() }));

/** The regional SSO call also sets the regional session cookie. */
export const RegionSsoResponseSchema = z.object({ ok: z.literal(true), networkId: z.string() });

export const ApiKeyResponseSchema = z.object({ apiKey: z.string() });
export const FirstActivityQuerySchema = z.object({ networkId: z.string().min(1) });
/** `status` is true once an SDK session has been made with the network's API key. */
export const FirstActivityResponseSchema = z.object({ status: z.boolean() });
export const PingResponseSchema = z.object({ region: z.enum(REGION_KEYS), ok: z.literal(true) });

export const SdkSessionRequestSchema = z.object({ userId: z.string().trim().min(1).max(128) });
export const SdkSessionResponseSchema = z.object({ sessionId: z.string(), userId: z.string(), networkId: z.string() });

/**
 * Region → portal, server to server with the same REGION_ADMIN_TOKEN: is the portal session that
 * opened a regional session still live, and may its member still see the application? Asked on
 * every request a regional session makes, so a sign-out or a removed member ends regional access
 * at once.
 */
export const REGIONAL_SESSION_CHECK_PATH = '/api/internal/v1/regional-sessions/check';
export const RegionalSessionCheckRequestSchema = z.object({
  sessionId: z.string().trim().min(1).max(200),
  applicationId: z.string().trim().min(1).max(64),
});
export type RegionalSessionCheckRequest = z.infer<typeof RegionalSessionCheckRequestSchema>;
export const RegionalSessionCheckResponseSchema = z.object({ allowed: z.literal(true), userId: z.string() });
