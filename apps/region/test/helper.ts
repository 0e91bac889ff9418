import type { FastifyInstance } from 'fastify';
import { createRegionApp, openRegionStore, type RegionStore } from '../src/index.ts';
import { PortalStandIn } from './portal-stand-in.ts';

export const ADMIN_TOKEN = 'region-admin-token-for-tests';

export interface Harness {
  portal: PortalStandIn;
  app: FastifyInstance;
  store: RegionStore;
  close: () => Promise<void>;
}

/** The three regions on an in-memory PGlite, trusting a portal stand-in listening on a real port. */
export async function startRegions(
  options: { provisioningDelayMs?: number; publicBaseUrl?: string; portalOrigins?: string[] } = {},
): Promise<Harness> {
  const portal = await new PortalStandIn(ADMIN_TOKEN).start();
  const { store, close: closeStore } = await openRegionStore();
  const app = await createRegionApp({
    regions: ['SG', 'EU', 'US'],
    portalUrl: portal.url,
    portalOrigins: options.portalOrigins,
    adminToken: ADMIN_TOKEN,
    publicBaseUrl: options.publicBaseUrl ?? 'http://region.test',
    provisioningDelayMs: options.provisioningDelayMs ?? 0,
    store,
  });
  await app.ready();
  return {
    portal,
    app,
    store,
    close: async () => {
      await app.close();
      await closeStore();
      await portal.stop();
    },
  };
}

export const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** The network's first key, as the setup wizard reads it; fails once that key has stopped. */
export async function firstApiKey(store: RegionStore, networkId: string): Promise<string> {
  const { apiKey } = await store.setupApiKey(networkId);
  if (!apiKey) throw new Error(`the first key of ${networkId} has stopped`);
  return apiKey;
}

export async function createNetwork(
  app: FastifyInstance,
  region: string,
  applicationId: string,
  name = `App ${applicationId}`,
) {
  const response = await app.inject({
    method: 'POST',
    url: `/regions/${region}/admin/v1/networks`,
    headers: admin,
    payload: { applicationId, organizationId: 'org-1', name },
  });
  if (response.statusCode !== 201)
    throw new Error(`create network answered ${response.statusCode}: ${response.body}`);
  return response.json<{
    networkId: string;
    applicationId: string;
    name: string;
    status: string;
    consoleUrl: string;
    region: string;
  }>();
}

/** The regional SSO call with a portal token for the user, as the browser makes it; refused answers throw. */
async function sso(h: Harness, region: string, userId: string, applicationId: string) {
  const response = await h.app.inject({
    method: 'POST',
    url: `/regions/${region}/api/v2/sso/portal?applicationId=${applicationId}`,
    headers: { authorization: `Bearer ${await h.portal.token(userId)}`, origin: h.portal.url },
  });
  if (response.statusCode !== 200) throw new Error(`sso answered ${response.statusCode}: ${response.body}`);
  return response;
}

/** Opens the regional session as the portal's pages do and answers its token (the SSO answer's `sessionToken`). */
export async function openBearerSession(h: Harness, region: string, userId: string, applicationId: string) {
  return (await sso(h, region, userId, applicationId)).json<{ sessionToken: string }>().sessionToken;
}

/** Opens the regional session and answers its cookie header value (a caller on the region's own site). */
export async function openSession(h: Harness, region: string, userId: string, applicationId: string) {
  const setCookie = (await sso(h, region, userId, applicationId)).headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie) ?? '';
  return cookie.split(';')[0] ?? '';
}
