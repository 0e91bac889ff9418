import { z } from 'zod';

/**
 * API keys with rotation (decision 043). The region keeps a network's keys and refuses the
 * stopped ones; the portal manages them through the region's admin API. The `Region…` schemas
 * are the region's side of that API.
 */

/** How many keys of a network may work at once (active or still in a rotation's overlap). */
export const MAX_WORKING_API_KEYS = 5;

/**
 * `expiring` works until its `expiresAt` (a rotation's overlap); `expired` and `revoked` are
 * refused by the region's SDK calls.
 */
export const API_KEY_STATUSES = ['active', 'expiring', 'expired', 'revoked'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

/** A key as the region answers it: never the key itself, only its prefix. */
export const RegionApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** `rk_` and the key's next 8 characters, enough to tell keys apart. */
  prefix: z.string(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  /** The time of the key's newest SDK session. */
  lastUsedAt: z.iso.datetime().nullable(),
  status: z.enum(API_KEY_STATUSES),
});
export type RegionApiKey = z.infer<typeof RegionApiKeySchema>;

/** A network's keys, newest first. */
export const RegionApiKeyListSchema = z.object({ results: z.array(RegionApiKeySchema) });
export type RegionApiKeyList = z.infer<typeof RegionApiKeyListSchema>;

/** The key's id travels in the region's paths, so it keeps to URL-safe characters. */
export const ApiKeyIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, "_" and "-" only');

export const ApiKeyNameSchema = z.string().trim().min(1).max(64);

/** The portal makes the key's id, so its audit entry and the region name the same key. */
export const RegionCreateApiKeyRequestSchema = z.object({ keyId: ApiKeyIdSchema, name: ApiKeyNameSchema });
export type RegionCreateApiKeyRequest = z.infer<typeof RegionCreateApiKeyRequestSchema>;

/** The answer to a create: the key itself (`secret`), shown this once. */
export const RegionCreatedApiKeySchema = RegionApiKeySchema.extend({ secret: z.string() });
export type RegionCreatedApiKey = z.infer<typeof RegionCreatedApiKeySchema>;

// Years outside 1970–9999 would reach the database as times it cannot store.
const EARLIEST_EXPIRY_MS = 0;
const LATEST_EXPIRY_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** When the key stops; a key already stopping earlier keeps its earlier time. */
export const RegionExpireApiKeyRequestSchema = z.object({
  expiresAt: z.iso.datetime({ offset: true }).refine((value) => {
    const at = Date.parse(value);
    return at >= EARLIEST_EXPIRY_MS && at <= LATEST_EXPIRY_MS;
  }, 'must be a time from 1970 to 9999'),
});
export type RegionExpireApiKeyRequest = z.infer<typeof RegionExpireApiKeyRequestSchema>;

// ---- The portal's API: /api/v1/applications/{id}/api-keys (decision 043) ----

/** A key as the portal answers it: the region's view of it, never the key itself. */
export const ApiKeySchema = RegionApiKeySchema;
export type ApiKey = RegionApiKey;

export const ListApiKeysResponseSchema = RegionApiKeyListSchema;
export type ListApiKeysResponse = RegionApiKeyList;

export const CreateApiKeyRequestSchema = z.object({ name: ApiKeyNameSchema });
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequestSchema>;

/** The new key with its `secret`, which no later answer shows again. */
export const CreatedApiKeySchema = RegionCreatedApiKeySchema;
export type CreatedApiKey = RegionCreatedApiKey;

/** How long a rotated key keeps working beside its successor. */
export const API_KEY_OVERLAPS = ['now', '1h', '24h', '7d'] as const;
export type ApiKeyOverlap = (typeof API_KEY_OVERLAPS)[number];
export const API_KEY_OVERLAP_MS: Record<ApiKeyOverlap, number> = {
  now: 0,
  '1h': 60 * 60_000,
  '24h': 24 * 60 * 60_000,
  '7d': 7 * 24 * 60 * 60_000,
};

/** A rotation: the successor is named like the key it replaces unless a name is given. */
export const RotateApiKeyRequestSchema = z.object({
  overlap: z.enum(API_KEY_OVERLAPS),
  name: ApiKeyNameSchema.optional(),
});
export type RotateApiKeyRequest = z.infer<typeof RotateApiKeyRequestSchema>;

export const RotateApiKeyResponseSchema = z.object({
  /** The successor, with its secret shown this once. */
  created: CreatedApiKeySchema,
  /** The rotated key, with the time it stops. */
  rotated: ApiKeySchema,
});
export type RotateApiKeyResponse = z.infer<typeof RotateApiKeyResponseSchema>;
