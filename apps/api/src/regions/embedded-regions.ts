import { openRegionStore, registerRegions } from '@portal/region';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { resolveDataDirSecret } from '../auth/secret.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';

const REGION_ADMIN_TOKEN_FILE = 'region-admin-token';

export function regionAdminToken(config: Config): string {
  return resolveDataDirSecret(config.regionAdminToken, config.dataDir, REGION_ADMIN_TOKEN_FILE);
}

/**
 * A fetch for traffic between the portal and the regions it hosts: calls to the portal's own origin
 * (the embedded regions' admin API, and from them the JWKS, application and session checks) go
 * through the portal's request pipeline in process, exactly as HTTP requests would, without
 * depending on PUBLIC_URL being reachable from the server itself (a TLS proxy in front, say).
 * Calls to any other origin go out over the network.
 */
export function portalFetch(app: FastifyInstance, publicUrl: string): typeof fetch {
  const portalOrigin = new URL(publicUrl).origin;
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== portalOrigin) return fetch(request);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await app.inject({
      method: request.method as InjectOptions['method'],
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
      ...(body ? { payload: body } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) headers.append(name, String(item));
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304 || request.method === 'HEAD';
    return new Response(empty ? null : answer.rawPayload, { status: answer.statusCode, headers });
  };
}

/**
 * Hosts the regional platform emulator for every region that has no REGION_*_URL, under
 * /regions/{sg|eu|us} of the portal's own port, with its tables in the `region` schema of the
 * portal database. The portal then talks to it over HTTP exactly as to a remote region.
 */
export async function mountEmbeddedRegions(app: FastifyInstance, deps: { config: Config; database: Database }) {
  const { config, database } = deps;
  if (config.embeddedRegions.length === 0) return;
  const executor = database.pglite ?? database.pool;
  if (!executor) throw new Error('The embedded regions need the portal database connection.');
  const { store } = await openRegionStore({ executor });
  await registerRegions(app, {
    regions: config.embeddedRegions,
    portalUrl: config.publicUrl,
    publicBaseUrl: config.publicUrl,
    adminToken: regionAdminToken(config),
    store,
    fetch: portalFetch(app, config.publicUrl),
  });
}
