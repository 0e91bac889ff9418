import { z } from 'zod';
import { REGION_KEYS } from './constants.ts';
import { NETWORK_STATUSES } from './region-paths.ts';

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

export const UpdateNetworkRequestSchema = z.object({ name: z.string().trim().min(1).max(64) });

export const UsageQuerySchema = z.object({ month: z.string().regex(/^\d{4}-\d{2}$/) });
export const UsageResponseSchema = z.array(
  z.object({ networkId: z.string(), applicationId: z.string(), activeUsers: z.number().int() }),
);
export type UsageResponse = z.infer<typeof UsageResponseSchema>;

/**
 * The regional SSO call's answer. `sessionToken` is the regional session, which the portal's pages
 * send as `Authorization: Bearer` (decision 034); the call also sets it as a cookie of the region.
 */
export const RegionSsoResponseSchema = z.object({
  ok: z.literal(true),
  networkId: z.string(),
  sessionToken: z.string(),
  expiresAt: z.iso.datetime(),
});
export type RegionSsoResponse = z.infer<typeof RegionSsoResponseSchema>;

/**
 * The setup wizard's key: the network's first key while it works. Once that key has stopped,
 * `apiKey` is null and `prefix` names the newest key that still works (null when none does), so
 * the wizard can point to a key saved from *API keys* (decision 043).
 */
export const ApiKeyResponseSchema = z.object({
  apiKey: z.string().nullable(),
  prefix: z.string().nullable().optional(),
});
export type ApiKeyResponse = z.infer<typeof ApiKeyResponseSchema>;
export const FirstActivityQuerySchema = z.object({ networkId: z.string().min(1) });
/** `status` is true once an SDK session has been made with the network's API key. */
export const FirstActivityResponseSchema = z.object({ status: z.boolean() });
export type FirstActivityResponse = z.infer<typeof FirstActivityResponseSchema>;
export const PingResponseSchema = z.object({ region: z.enum(REGION_KEYS), ok: z.literal(true) });

export const SdkSessionRequestSchema = z.object({ userId: z.string().trim().min(1).max(128) });
export const SdkSessionResponseSchema = z.object({
  sessionId: z.string(),
  userId: z.string(),
  networkId: z.string(),
});

export const RegionalSessionCheckRequestSchema = z.object({
  sessionId: z.string().trim().min(1).max(200),
  applicationId: z.string().trim().min(1).max(64),
});
export type RegionalSessionCheckRequest = z.infer<typeof RegionalSessionCheckRequestSchema>;
export const RegionalSessionCheckResponseSchema = z.object({ allowed: z.literal(true), userId: z.string() });
