import { openRegionStore, registerRegions } from '@portal/region';
import type { FastifyInstance } from 'fastify';
import { resolveDataDirSecret } from '../auth/secret.ts';
import { withStartupLock } from '../db/startup-lock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { portalFetch } from '../http/portal-fetch.ts';

export const REGION_ADMIN_TOKEN_FILE = 'region-admin-token';

export function regionAdminToken(config: Config): string {
  return resolveDataDirSecret(config.regionAdminToken, config.dataDir, REGION_ADMIN_TOKEN_FILE);
}

/**
 * Hosts the regional platform emulator for every region that has no REGION_*_URL, under
 * /regions/{sg|eu|us} of the portal's own port, with its tables in the `region` schema of the
 * portal database. The portal then talks to it over HTTP exactly as to a remote region.
 */
export async function mountEmbeddedRegions(
  app: FastifyInstance,
  deps: { config: Config; database: Database },
) {
  const { config, database } = deps;
  if (config.embeddedRegions.length === 0) return;
  const executor = database.pglite ?? database.pool;
  if (!executor) throw new Error('The embedded regions need the portal database connection.');
  // Instances starting at once would both create the emulator's tables: they take turns.
  const open = () => openRegionStore({ executor });
  const { store } = await (database.pool
    ? withStartupLock(database.pool, 'embedded-stand-ins', open)
    : open());
  await registerRegions(app, {
    regions: config.embeddedRegions,
    portalUrl: config.publicUrl,
    publicBaseUrl: config.publicUrl,
    adminToken: regionAdminToken(config),
    store,
    fetch: portalFetch(app, config.publicUrl),
  });
}
