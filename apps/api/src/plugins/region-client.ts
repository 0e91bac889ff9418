import fp from 'fastify-plugin';
import { portalFetch } from '../http/portal-fetch.ts';
import { regionAdminToken } from '../regions/embedded-regions.ts';
import { RegionClient } from '../regions/region-client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The portal's side of the regional admin API (server to server, bearer REGION_ADMIN_TOKEN). */
    regions: RegionClient;
  }
}

/** One client of the three regions: the configured REGION_*_URL, or the regions this server hosts. */
export const regionClientPlugin = fp(
  async (app) => {
    const { config } = app;
    app.decorate(
      'regions',
      new RegionClient({
        baseUrls: config.regionUrls,
        adminToken: regionAdminToken(config),
        fetch: portalFetch(app, config.publicUrl),
      }),
    );
  },
  { name: 'region-client', dependencies: ['config'] },
);
