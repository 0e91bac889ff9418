import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REGION_KEYS } from '@portal/contracts';
import { freePort } from '../harness/portal-server.ts';
import { startRegionProcess, stopRegionProcess, type RegionProcess } from '../harness/region-server.ts';
import { test as base } from './fixtures.ts';
import { withOwnPortal } from './own-portal.ts';

interface RegionsElsewhere {
  baseURL: string;
  /** Where the regions' process answers: the base of /regions/{sg|eu|us}. */
  regionsUrl: string;
}

/**
 * The shared fixtures on a portal of this worker's own that hosts no region: all three run as
 * their own process (`npm run region`) on another port of 127.0.0.1, another site than the
 * portal's http://localhost, and the portal names them with REGION_SG_URL, REGION_EU_URL and
 * REGION_US_URL. The regions learn the portal's address once it has started.
 */
export const regionsElsewhereTest = base.extend<object, { regionsElsewhere: RegionsElsewhere }>({
  regionsElsewhere: [
    async ({}, use) => {
      const regionsPort = await freePort();
      const regionsUrl = `http://127.0.0.1:${regionsPort}`;
      const adminToken = crypto.randomBytes(24).toString('base64url');
      const regionUrls = Object.fromEntries(
        REGION_KEYS.map((key) => [`REGION_${key}_URL`, `${regionsUrl}/regions/${key.toLowerCase()}`]),
      );
      const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-regions-'));
      let regions: RegionProcess | undefined;
      try {
        await withOwnPortal(
          'regions-elsewhere',
          { ...regionUrls, REGION_ADMIN_TOKEN: adminToken },
          async (portal) => {
            regions = await startRegionProcess({
              port: regionsPort,
              portalUrl: portal.baseURL,
              adminToken,
              log: path.join(logDir, 'regions.log'),
            });
            await use({ baseURL: portal.baseURL, regionsUrl });
          },
        );
      } finally {
        if (regions) await stopRegionProcess(regions.process);
        if (process.env.E2E_KEEP_DATA === '1') console.log(`e2e: the regions' log is in ${logDir}`);
        else fs.rmSync(logDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ regionsElsewhere }, use) => use(regionsElsewhere.baseURL),
});
