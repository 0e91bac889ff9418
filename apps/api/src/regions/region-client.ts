import {
  NetworkSchema,
  REGION_PATHS,
  RegionApiKeyListSchema,
  RegionApiKeySchema,
  RegionCreatedApiKeySchema,
  UsageResponseSchema,
  type CreateNetworkRequest,
  type Network,
  type RegionApiKey,
  type RegionApiKeyList,
  type RegionCreateApiKeyRequest,
  type RegionCreatedApiKey,
  type RegionKey,
  type UsageResponse,
} from '@portal/contracts';
import type { z } from 'zod';

/** The region could not be reached or answered with a server error: worth retrying later. */
export class RegionUnavailableError extends Error {
  constructor(
    readonly region: RegionKey,
    detail: string,
  ) {
    super(`region ${region} unavailable: ${detail}`);
  }
}

/** The region refused the request (4xx): retrying the same request will not help. */
export class RegionRequestError extends Error {
  constructor(
    readonly region: RegionKey,
    readonly status: number,
    detail: string,
    /** The `code` of the region's JSON refusal (`API_KEY_LIMIT`), when it named one. */
    readonly code?: string,
  ) {
    super(`region ${region} refused the request (${status}): ${detail}`);
  }
}

function refusalCode(text: string): string | undefined {
  try {
    const body: unknown = JSON.parse(text);
    const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

export interface RegionClientOptions {
  baseUrls: Record<RegionKey, string>;
  adminToken: string;
  /** Bound on one call, so a hung region cannot hold a request or a job forever. */
  timeoutMs?: number;
  /** How requests are sent; the portal passes one that reaches the regions it hosts in process. */
  fetch?: typeof fetch;
}

/** The portal's side of the regional admin API (server to server, bearer REGION_ADMIN_TOKEN). */
export class RegionClient {
  private readonly timeoutMs: number;

  constructor(private readonly options: RegionClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** Creates the application's network; the region answers the existing one for a known applicationId. */
  createNetwork(region: RegionKey, request: CreateNetworkRequest): Promise<Network> {
    return this.call(region, NetworkSchema, 'POST', REGION_PATHS.networks, request);
  }

  getNetwork(region: RegionKey, networkId: string): Promise<Network> {
    return this.call(region, NetworkSchema, 'GET', REGION_PATHS.network(networkId));
  }

  updateNetwork(region: RegionKey, networkId: string, name: string): Promise<Network> {
    return this.call(region, NetworkSchema, 'PUT', REGION_PATHS.network(networkId), { name });
  }

  deactivateNetwork(region: RegionKey, networkId: string): Promise<Network> {
    return this.call(region, NetworkSchema, 'POST', REGION_PATHS.deactivate(networkId));
  }

  reactivateNetwork(region: RegionKey, networkId: string): Promise<Network> {
    return this.call(region, NetworkSchema, 'POST', REGION_PATHS.reactivate(networkId));
  }

  /** Distinct active users of every network of the region in a month (`YYYY-MM`). */
  usage(region: RegionKey, month: string): Promise<UsageResponse> {
    const query = new URLSearchParams({ month }).toString();
    return this.call(region, UsageResponseSchema, 'GET', `${REGION_PATHS.usage}?${query}`);
  }

  /** The network's API keys, newest first: never the keys themselves (decision 043). */
  listApiKeys(region: RegionKey, networkId: string): Promise<RegionApiKeyList> {
    return this.call(region, RegionApiKeyListSchema, 'GET', REGION_PATHS.apiKeys(networkId));
  }

  /** Makes a key under the portal's id; the answer holds the key itself, which no later call shows. */
  createApiKey(
    region: RegionKey,
    networkId: string,
    request: RegionCreateApiKeyRequest,
  ): Promise<RegionCreatedApiKey> {
    return this.call(region, RegionCreatedApiKeySchema, 'POST', REGION_PATHS.apiKeys(networkId), request);
  }

  /** Sets when the key stops; a key already stopping earlier keeps its earlier time. */
  expireApiKey(region: RegionKey, networkId: string, keyId: string, expiresAt: Date): Promise<RegionApiKey> {
    return this.call(region, RegionApiKeySchema, 'POST', REGION_PATHS.apiKeyExpire(networkId, keyId), {
      expiresAt: expiresAt.toISOString(),
    });
  }

  /** Stops the key now; a key revoked before keeps its first revocation's time. */
  revokeApiKey(region: RegionKey, networkId: string, keyId: string): Promise<RegionApiKey> {
    return this.call(region, RegionApiKeySchema, 'POST', REGION_PATHS.apiKeyRevoke(networkId, keyId));
  }

  private async call<T>(
    region: RegionKey,
    schema: z.ZodType<T>,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T> {
    const url = `${this.options.baseUrls[region]}${path}`;
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(url, {
        method,
        headers: {
          authorization: `Bearer ${this.options.adminToken}`,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new RegionUnavailableError(region, (error as Error).message);
    }
    const text = await response.text().catch(() => '');
    if (response.status >= 500 || response.status === 429 || response.status === 408) {
      throw new RegionUnavailableError(region, `${response.status} ${text.slice(0, 200)}`);
    }
    if (!response.ok)
      throw new RegionRequestError(region, response.status, text.slice(0, 200), refusalCode(text));
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new RegionUnavailableError(region, `answered ${response.status} without JSON`);
    }
    const parsed = schema.safeParse(json);
    // A malformed answer is treated like an outage: the region may be mid-deploy.
    if (!parsed.success)
      throw new RegionUnavailableError(region, `unexpected answer shape: ${parsed.error.message}`);
    return parsed.data;
  }
}
